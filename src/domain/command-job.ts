import type { Command } from "./command.js";
import type { ThreadReply } from "./thread-reply.js";

/**
 * A PR comment command, or a comment in a review thread, answered on the fast command queue (agent work
 * is handed to the run queue).
 */
export interface CommandJob {
  installationId: number;
  repositoryId: number;
  repositoryFullName: string;
  cloneUrl: string;
  prNumber: number;
  commentId: number;
  author: string;
  command: Command | ThreadReply;
  deliveryId?: string;
}

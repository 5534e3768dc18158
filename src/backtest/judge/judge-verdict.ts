/** The judge's answer to one question, as cached. */
export interface JudgeVerdict {
  same: boolean;
  /** 0..1; 1 when the judge gave none. */
  confidence: number;
  reason: string;
  /** What asking cost (0 when answered from the cache on a later run: it is counted once, when asked). */
  costUsd: number;
}

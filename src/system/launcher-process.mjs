// The app's process launcher: a small Node process that starts short-lived commands (git) for the app and
// hands back their exit and output over IPC. Forking copies the forking process's page tables, and Node
// forks synchronously on the thread that calls spawn(): done here, in a process of a few dozen MB that
// answers no webhooks, that cost never stalls the app's event loop. Started by process-launcher.ts.
// Never logs: arguments may carry credentials.
import { spawn } from "node:child_process";

/** id → { child, timer, out, err, timedOut } */
const running = new Map();

function killGroup(pid) {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // the group is gone
  }
}

function finish(id, result) {
  const job = running.get(id);
  if (!job) return;
  running.delete(id);
  clearTimeout(job.timer);
  if (process.connected) process.send({ type: "done", id, ...result });
}

function run(message) {
  const { id, file, args, cwd, env, input, timeoutMs, maxOutputBytes } = message;
  let child;
  try {
    child = spawn(file, args, {
      cwd,
      env,
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      detached: true, // its own process group: a timeout or a kill takes its helpers too
      windowsHide: true,
    });
  } catch (error) {
    if (process.connected) process.send({ type: "done", id, error: { message: String(error?.message ?? error) } });
    return;
  }
  const job = { child, out: [], err: [], outBytes: 0, timedOut: false, overLimit: false, timer: undefined };
  running.set(id, job);
  job.timer = setTimeout(() => {
    job.timedOut = true;
    killGroup(child.pid);
    // helpers that escaped the group could hold the pipes open: do not wait for them
    child.stdout?.destroy();
    child.stderr?.destroy();
  }, timeoutMs);
  child.stdout?.on("data", (chunk) => {
    if (job.overLimit) return;
    job.outBytes += chunk.length;
    if (maxOutputBytes !== undefined && job.outBytes > maxOutputBytes) {
      // past the cap: stop the command and drop what it wrote, so its output is never held whole
      job.overLimit = true;
      job.out = [];
      killGroup(child.pid);
      child.stdout?.destroy();
      return;
    }
    job.out.push(chunk);
  });
  child.stderr?.on("data", (chunk) => job.err.push(chunk));
  child.stdin?.on("error", () => {
    // the command exited before reading all of its input; its exit status tells the story
  });
  if (child.stdin && input !== undefined) child.stdin.end(input);
  child.once("error", (error) => finish(id, { error: { message: error.message }, stderr: Buffer.concat(job.err) }));
  child.once("close", (code, signal) =>
    finish(id, {
      exitCode: code,
      signal,
      timedOut: job.timedOut,
      overLimit: job.overLimit,
      stdout: Buffer.concat(job.out),
      stderr: Buffer.concat(job.err),
    }),
  );
}

process.on("message", (message) => {
  if (message?.type === "run") run(message);
});

// The app is gone (stopped, crashed or killed): take every running command with it, then go.
process.on("disconnect", () => {
  for (const job of running.values()) killGroup(job.child.pid);
  process.exit(0);
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => {}); // the app decides when we stop

/** Whether a process of this machine (and PID namespace) with this pid runs; EPERM: it runs, under another user. */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

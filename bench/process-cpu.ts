/** Reading a process's CPU time from /proc (Linux), shared by the benchmarks. */
import { readFileSync } from 'node:fs';

/**
 * CPU time the process has used (user + system, all threads), in microseconds. Per request, it
 * is disturbed less than req/s by other work on a shared machine.
 */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

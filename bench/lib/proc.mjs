/**
 * What a child process has cost, read from outside through /proc (Linux): CPU time of every thread
 * in nanoseconds (schedstat is ns-precise, unlike the 10 ms ticks of /proc/<pid>/stat) and VmRSS.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU nanoseconds of all live threads of `pid`; falls back to utime+stime ticks where schedstat is missing. */
export function cpuNs(pid) {
  try {
    let total = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`))
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    return total;
  } catch {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat, i.e. 11 and 12 after the comm field; 100 ticks a second.
    return (Number(fields[11]) + Number(fields[12])) * 1e7;
  }
}

/** Resident set size in bytes. */
export function rssBytes(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

// The ratios and targets printed under the table (each scenario beside its baseline of the same run).
import type { Row } from './context.ts';

const find = (rows: Row[], prefix: string) => rows.find((r) => r.scenario.startsWith(prefix));
const num = (note: string | undefined, unit: string) =>
  Number(new RegExp(`(\\d+) ${unit}`).exec(note ?? '')?.[1] ?? NaN);

export function ratios(rows: Row[]): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  const ratio = (label: string, a?: Row, b?: Row) => {
    if (a && b && b.rps > 0) out[label] = +(a.rps / b.rps).toFixed(2);
  };
  // The same ratios by the server's CPU time per request (B1's / the scenario's): what the server process itself
  // spends, undistorted by the load generator and other processes sharing the cores.
  const cpuRatio = (label: string, a?: Row, b?: Row) => {
    if (a && b && a.cpuMs > 0) out[label] = +(b.cpuMs / a.cpuMs).toFixed(2);
  };
  const b1 = find(rows, 'B1 ');
  cpuRatio('S2a / B1 by server CPU per request', find(rows, 'S2a '), b1);
  cpuRatio('S2b / B1 by server CPU per request', find(rows, 'S2b '), b1);
  ratio('S2a / B1 throughput (target >= 0.8)', find(rows, 'S2a '), b1);
  ratio('S2b / B1 throughput (target >= 0.25)', find(rows, 'S2b '), b1);
  ratio('S2c / B1 throughput (old repeated-varied S2b)', find(rows, 'S2c '), b1);
  ratio('S2a / B2 throughput (cost of auth + scoping)', find(rows, 'S2a '), find(rows, 'B2 '));
  const s8 = find(rows, 'S8 ');
  const b8 = find(rows, 'B8 ');
  if (s8) out['S8 records/s (target >= 50,000)'] = num(s8.note, 'records/s');
  if (s8) out['S8 records per server CPU second'] = num(s8.note, 'records per CPU s');
  if (s8 && b8)
    out['S8 / B8 (static server, same pages)'] = +(num(s8.note, 'records/s') / num(b8.note, 'records/s')).toFixed(2);
  const s4b = find(rows, 'S4b ');
  if (s4b) out['S4b records/s (target >= 150,000)'] = num(s4b.note, 'records/s');
  const s5 = find(rows, 'S5 ');
  if (s5) out['S5 projects/s (target >= 1,000)'] = s5.rps;
  return out;
}

// The one duration formatter, for the services' messages and the transcript alike. Three styles,
// because the places read differently and tests pin each: a configured limit is shown as given
// (`timed out after 500ms`), a wait the user is told about is rounded to what matters (`retrying in
// 45s`, `within 5min`), a running clock keeps its width steady (`4.2s`, `3m 07s`).

export type DurationStyle =
  /** `850ms`, `2s`, `1.5s`: limits and measured times, as precise as they were given. */
  | 'exact'
  /** `0.3s`, `45s`, `5min`: one decimal under 10s, whole seconds under 2min, minutes after. */
  | 'rounded'
  /** `12ms`, `4.2s`, `3m 07s`: a clock that ticks (tool call elapsed time). */
  | 'clock';

export function formatDuration(ms: number, style: DurationStyle = 'exact'): string {
  if (style === 'rounded') return rounded(ms);
  if (style === 'clock') return clock(ms);
  if (ms < 1000) return `${ms}ms`;
  const seconds = ms / 1000;
  return Number.isInteger(seconds) ? `${seconds}s` : `${seconds.toFixed(1)}s`;
}

function rounded(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 10) return `${Number(seconds.toFixed(1))}s`;
  if (seconds < 120) return `${Math.round(seconds)}s`;
  return `${Number((seconds / 60).toFixed(1))}min`;
}

function clock(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m ${String(Math.floor(seconds % 60)).padStart(2, '0')}s`;
}

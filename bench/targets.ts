/** The targets of the performance work, checked against the medians of a run. */
import { Results, format, type Unit } from './lib/results';
import { mcpLabel } from './scenarios/mcp-start';
import { INK_BASELINE, STARTUP } from './scenarios/startup';
import { ECHO, MANY_EARLIER_MESSAGES, streamLabel } from './scenarios/stream';
import { TOOLS_HEADLESS, TOOLS_TUI } from './scenarios/tools';
import { READY_ONE, RSS_GROWTH_LATER, TOOL_BUDGET_APP, TOOL_BUDGET_CORE } from './scenarios/tool-budget';
import { RESUME } from './scenarios/resume';
import { HUGE_HEADLESS, HUGE_HTTP, HUGE_TUI, PEAK_HUGE, PEAK_SMALL } from './scenarios/huge-result';

export interface TargetResult {
  target: string;
  measured: string;
  met: boolean | undefined;
}

interface Target {
  target: string;
  unit: Unit;
  limit: number;
  /** The measured value (a median, or a ratio of medians), and how it was derived. */
  measure: (results: Results) => { value: number; detail?: string };
}

const m = (results: Results, scenario: string, metric: string) => results.median(scenario, metric);

function ratio(results: Results, scenario: string, baseline: string, metric: string, unit: Unit, baselineMetric = metric): { value: number; detail: string } {
  const value = m(results, scenario, metric);
  const base = m(results, baseline, baselineMetric);
  return { value: value / base, detail: `${format(value, unit)} / ${format(base, unit)} ${unit}` };
}

const full = (long: boolean | number) => streamLabel('full', long);
const slow = (long: boolean | number) => streamLabel(200, long);

export const TARGETS: Target[] = [
  { target: 'start-up to input box <= 0.5 s', unit: 'ms', limit: 500, measure: (r) => ({ value: m(r, STARTUP, 'spawn to input box') }) },
  {
    target: 'start-up <= 1.1x the minimal Ink app',
    unit: 'x',
    limit: 1.1,
    measure: (r) => ratio(r, STARTUP, INK_BASELINE, 'spawn to input box', 'ms', 'spawn to first paint'),
  },
  { target: 'RSS at ready <= 120 MB', unit: 'MB', limit: 120, measure: (r) => ({ value: m(r, STARTUP, 'RSS at input box') }) },
  { target: '2,000 tokens at full speed: CPU <= 0.4 s', unit: 's', limit: 0.4, measure: (r) => ({ value: m(r, full(false), 'CPU') }) },
  { target: '2,000 tokens at full speed: <= 40 KiB to the terminal', unit: 'KiB', limit: 40, measure: (r) => ({ value: m(r, full(false), 'bytes to the terminal') }) },
  {
    target: "2,000 tokens at full speed: last token <= 0.3 s after the server's last byte",
    unit: 'ms',
    limit: 300,
    measure: (r) => ({ value: m(r, full(false), "last token after server's last byte") }),
  },
  { target: '200 tokens/s: <= 15% of one core', unit: '%', limit: 15, measure: (r) => ({ value: m(r, slow(false), 'CPU of one core while streaming') }) },
  { target: 'long session, full speed: CPU <= 1.2x empty', unit: 'x', limit: 1.2, measure: (r) => ratio(r, full(true), full(false), 'CPU', 's') },
  { target: 'long session, full speed: bytes <= 1.2x empty', unit: 'x', limit: 1.2, measure: (r) => ratio(r, full(true), full(false), 'bytes to the terminal', 'KiB') },
  { target: 'long session, 200 tokens/s: CPU <= 1.2x empty', unit: 'x', limit: 1.2, measure: (r) => ratio(r, slow(true), slow(false), 'CPU', 's') },
  { target: 'long session, 200 tokens/s: bytes <= 1.2x empty', unit: 'x', limit: 1.2, measure: (r) => ratio(r, slow(true), slow(false), 'bytes to the terminal', 'KiB') },
  { target: 'keystroke echo p95 <= 16 ms while streaming', unit: 'ms', limit: 16, measure: (r) => ({ value: m(r, ECHO, 'echo p95') }) },
  { target: 'tool loop overhead <= 5 ms per call', unit: 'ms', limit: 5, measure: (r) => ({ value: m(r, TOOLS_TUI, 'overhead per call (mean)') }) },
  {
    target: '5 slow MCP servers ready <= 1.3x the slowest single one',
    unit: 'x',
    limit: 1.3,
    measure: (r) => ratio(r, mcpLabel(5), mcpLabel(1), 'spawn to all servers ready', 'ms'),
  },
  {
    target: 'first frame unaffected by 5 slow MCP servers (<= 1.1x no servers)',
    unit: 'x',
    limit: 1.1,
    measure: (r) => ratio(r, mcpLabel(5), mcpLabel(0), 'spawn to first frame', 'ms'),
  },
  {
    target: '20 servers, 1,000 tools: first frame <= 1.1x no servers',
    unit: 'x',
    limit: 1.1,
    measure: (r) => ratio(r, TOOL_BUDGET_APP, TOOL_BUDGET_APP, 'spawn to first frame', 'ms', 'spawn to first frame, no servers'),
  },
  {
    target: '20 servers, 1,000 tools: all ready <= 1.3x the slowest single one (issue 23)',
    unit: 'x',
    limit: 1.3,
    measure: (r) => ratio(r, TOOL_BUDGET_APP, TOOL_BUDGET_APP, 'spawn to all servers ready', 'ms', READY_ONE),
  },
  { target: '20 servers, 1,000 tools: sidebar ↓ redrawn p95 <= 16 ms', unit: 'ms', limit: 16, measure: (r) => ({ value: m(r, TOOL_BUDGET_APP, 'sidebar ↓ to redraw (p95)') }) },
  { target: '20,000 messages resume to the input box <= 1 s', unit: 'ms', limit: 1000, measure: (r) => ({ value: m(r, RESUME, 'spawn to input box') }) },
  { target: 'start-up to input box <= 150 ms (issue 23)', unit: 'ms', limit: 150, measure: (r) => ({ value: m(r, STARTUP, 'spawn to input box') }) },
  {
    target: 'start-up <= 0.35x the minimal Ink app (issue 23)',
    unit: 'x',
    limit: 0.35,
    measure: (r) => ratio(r, STARTUP, INK_BASELINE, 'spawn to input box', 'ms', 'spawn to first paint'),
  },
  { target: 'RSS at the input box <= 55 MB (issue 23)', unit: 'MB', limit: 55, measure: (r) => ({ value: m(r, STARTUP, 'RSS at input box') }) },
  { target: 'CPU until the input box <= 0.12 s (issue 23)', unit: 's', limit: 0.12, measure: (r) => ({ value: m(r, STARTUP, 'CPU at input box') }) },
  { target: 'tool loop overhead <= 2 ms per call, TUI (issue 23)', unit: 'ms', limit: 2, measure: (r) => ({ value: m(r, TOOLS_TUI, 'overhead per call (mean)') }) },
  { target: 'tool loop overhead <= 2 ms per call, headless -p (issue 23)', unit: 'ms', limit: 2, measure: (r) => ({ value: m(r, TOOLS_HEADLESS, 'overhead per call (mean)') }) },
  { target: '20 servers, 1,000 tools: sidebar ↓ redrawn <= 50 ms (max)', unit: 'ms', limit: 50, measure: (r) => ({ value: m(r, TOOL_BUDGET_APP, 'sidebar ↓ to redraw (max)') }) },
  { target: '1,000 tools: tools array once cached < 1 ms', unit: 'ms', limit: 1, measure: (r) => ({ value: m(r, TOOL_BUDGET_CORE, 'tools array once cached') }) },
  { target: '1,000 tools: heap of the tool budget < 30 MB', unit: 'MB', limit: 30, measure: (r) => ({ value: m(r, TOOL_BUDGET_CORE, 'heap growth (index, offer, search index, view)') }) },
  { target: '20 servers, 1,000 tools: RSS growth, first frame to all ready <= 30 MB (issue 23)', unit: 'MB', limit: 30, measure: (r) => ({ value: m(r, TOOL_BUDGET_APP, 'RSS growth, first frame to all ready') }) },
  { target: '20 servers, 1,000 tools: RSS growth, first frame to 2 s after all ready <= 30 MB (issue 23)', unit: 'MB', limit: 30, measure: (r) => ({ value: m(r, TOOL_BUDGET_APP, RSS_GROWTH_LATER) }) },
  {
    target: '1,000 tools on 20 servers: RSS grows < 30 MB more than with 20 tools',
    unit: 'MB',
    limit: 30,
    measure: (r) => {
      const many = m(r, TOOL_BUDGET_APP, 'RSS growth, first frame to all ready');
      const few = m(r, TOOL_BUDGET_APP, 'RSS growth, first frame to all ready, 20 tools');
      return { value: many - few, detail: `${format(many, 'MB')} - ${format(few, 'MB')} MB` };
    },
  },
  { target: '20,000 messages, full speed: CPU <= 1.2x empty (issue 23)', unit: 'x', limit: 1.2, measure: (r) => ratio(r, full(MANY_EARLIER_MESSAGES), full(false), 'CPU', 's') },
  { target: '20,000 messages, full speed: bytes <= 1.2x empty (issue 23)', unit: 'x', limit: 1.2, measure: (r) => ratio(r, full(MANY_EARLIER_MESSAGES), full(false), 'bytes to the terminal', 'KiB') },
  { target: '20,000 messages, 200 tokens/s: CPU <= 1.2x empty (issue 23)', unit: 'x', limit: 1.2, measure: (r) => ratio(r, slow(MANY_EARLIER_MESSAGES), slow(false), 'CPU', 's') },
  { target: '20,000 messages, 200 tokens/s: bytes <= 1.2x empty (issue 23)', unit: 'x', limit: 1.2, measure: (r) => ratio(r, slow(MANY_EARLIER_MESSAGES), slow(false), 'bytes to the terminal', 'KiB') },
  { target: 'a 50 MB tool result raises peak RSS <= 60 MB (TUI, issue 23)', unit: 'MB', limit: 60, measure: (r) => peakGrowth(r, HUGE_TUI) },
  { target: 'a 50 MB tool result raises peak RSS <= 60 MB (headless, issue 23)', unit: 'MB', limit: 60, measure: (r) => peakGrowth(r, HUGE_HEADLESS) },
  { target: 'a 50 MB tool result over HTTP raises peak RSS <= 60 MB (headless, issue 23)', unit: 'MB', limit: 60, measure: (r) => peakGrowth(r, HUGE_HTTP) },
];

/** Peak RSS with the huge result minus peak RSS of the same flow with a small one (medians). */
function peakGrowth(results: Results, scenario: string): { value: number; detail: string } {
  const huge = m(results, scenario, PEAK_HUGE);
  const small = m(results, scenario, PEAK_SMALL);
  return { value: huge - small, detail: `${format(huge, 'MB')} - ${format(small, 'MB')} MB` };
}

export function checkTargets(results: Results): TargetResult[] {
  return TARGETS.map((target) => {
    const { value, detail } = target.measure(results);
    if (!Number.isFinite(value)) return { target: target.target, measured: 'not measured', met: undefined };
    const shown = `${format(value, target.unit)} ${target.unit === 'x' ? 'x' : target.unit}${detail ? ` (${detail})` : ''}`;
    return { target: target.target, measured: shown, met: value <= target.limit };
  });
}

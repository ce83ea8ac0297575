import { Box, Text } from 'ink';
import { memo } from 'react';
import type { Usage } from '../../services/broker/types';
import { sanitizeLabel } from '../../services/terminal/sanitize';
import type { BrokerState } from '../../state/types';
import { truncate, width as textWidth } from './text';
import type { Theme } from '../../terminal/theme';

export interface StatusBarProps {
  modelName: string;
  brokerState: BrokerState;
  serverCounts: string;
  hint?: string;
  keys: string;
  width: number;
  theme: Theme;
  tokensPerSecond?: number;
  usage?: Usage;
  /** A tool call or command waits for the user's answer: said instead of the broker's state. */
  awaitingUser?: boolean;
  /** The context meter: prompt tokens of the conversation now, and the model's window (undefined: unknown). */
  contextUsed?: number;
  contextWindow?: number;
}

/** The meter turns to the warning colour at this share of the window, and to the error colour at the next. */
export const METER_WARN_AT = 0.75;
export const METER_ALERT_AT = 0.9;

/** `12.3k` for a count; a window in the units it was chosen in (`4k`, `32k`, `128k`). */
export function formatWindow(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens % 1000 === 0) return `${tokens / 1000}k`;
  if (tokens % 1024 === 0) return `${tokens / 1024}k`;
  return `${Math.round(tokens / 1000)}k`;
}

function formatUsed(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 100_000) return `${(tokens / 1000).toFixed(1)}k`;
  return `${Math.round(tokens / 1000)}k`;
}

/** `3.1k/4k`, `3.1k/?` while the window is unknown, '' before anything was measured. */
export function meterText(used?: number, window?: number): string {
  if (used === undefined) return '';
  return `${formatUsed(used)}/${window === undefined ? '?' : formatWindow(window)}`;
}

export function meterTone(used?: number, window?: number): 'normal' | 'warn' | 'alert' {
  if (used === undefined || window === undefined || window <= 0) return 'normal';
  const share = used / window;
  return share >= METER_ALERT_AT ? 'alert' : share >= METER_WARN_AT ? 'warn' : 'normal';
}

export const AWAITING_USER_LABEL = 'waiting for you';

export function formatCount(value: number): string {
  if (value < 1000) return String(value);
  if (value < 10_000) return `${(value / 1000).toFixed(1)}k`;
  if (value < 1_000_000) return `${Math.round(value / 1000)}k`;
  return `${(value / 1_000_000).toFixed(1)}M`;
}

/** `42 tok/s · 1.2k in / 340 out` for the last answer, or '' when nothing is known yet. */
export function usageText(tokensPerSecond?: number, usage?: Usage): string {
  const parts: string[] = [];
  if (tokensPerSecond !== undefined && Number.isFinite(tokensPerSecond) && tokensPerSecond > 0) {
    parts.push(`${tokensPerSecond >= 100 ? Math.round(tokensPerSecond) : tokensPerSecond.toFixed(1)} tok/s`);
  }
  if (usage && (usage.promptTokens !== undefined || usage.completionTokens !== undefined)) {
    parts.push(`${formatCount(usage.promptTokens ?? 0)} in / ${formatCount(usage.completionTokens ?? 0)} out`);
  }
  return parts.join(' · ');
}

const STATE_TONE: Record<BrokerState, 'muted' | 'accent' | 'error'> = {
  idle: 'muted',
  waiting: 'accent',
  streaming: 'accent',
  tools: 'accent',
  error: 'error',
};

/** The meter's colour role: muted, then the warning colour, then the error colour. */
export function meterColorFor(tone: 'normal' | 'warn' | 'alert', theme: Theme): string | undefined {
  return tone === 'alert' ? theme.error : tone === 'warn' ? theme.warn : theme.muted;
}

/** One row: model, broker state, speed and usage, MCP servers; then the hint or the keys. */
export const StatusBar = memo(function StatusBar({ modelName, brokerState, serverCounts, hint, keys, width, theme, tokensPerSecond, usage, awaitingUser = false, contextUsed, contextWindow }: StatusBarProps) {
  const model = sanitizeLabel(modelName) || 'no model';
  const stats = usageText(tokensPerSecond, usage);
  const stateLabel = awaitingUser ? AWAITING_USER_LABEL : brokerState;
  const meter = meterText(contextUsed, contextWindow);
  const tone = meterTone(contextUsed, contextWindow);
  const meterColor = meterColorFor(tone, theme);
  const meterPart = meter ? ` · ${meter}` : '';
  const left = `${model} · ${stateLabel}${meterPart}${stats ? ` · ${stats}` : ''} · mcp ${serverCounts}`;
  const leftShown = truncate(left, width);
  const room = width - textWidth(leftShown) - 2;
  const right = hint ? sanitizeLabel(hint) : keys;
  const rightShown = room >= 8 ? truncate(right, room) : '';
  const stateColor = awaitingUser ? theme.warn : STATE_TONE[brokerState] === 'error' ? theme.error : STATE_TONE[brokerState] === 'accent' ? theme.accent : theme.muted;
  const whole = leftShown === left;
  return (
    <Box width={width} justifyContent="space-between">
      {whole ? (
        <Text wrap="truncate-end">
          <Text color={theme.accent} bold={!theme.color}>
            {model}
          </Text>
          <Text color={theme.muted}> · </Text>
          <Text color={stateColor} bold={awaitingUser}>
            {stateLabel}
          </Text>
          {meter ? (
            <>
              <Text color={theme.muted}> · </Text>
              <Text color={meterColor} bold={tone !== 'normal' && !theme.color}>
                {meter}
              </Text>
            </>
          ) : null}
          <Text color={theme.muted}>{left.slice(model.length + 3 + stateLabel.length + meterPart.length)}</Text>
        </Text>
      ) : (
        <Text color={theme.muted} wrap="truncate-end">
          {leftShown}
        </Text>
      )}
      {rightShown ? (
        <Text color={hint ? theme.warn : theme.muted} wrap="truncate-end">
          {rightShown}
        </Text>
      ) : null}
    </Box>
  );
});

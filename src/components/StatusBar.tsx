import { Box, Text } from 'ink';
import { sanitizeLabel } from '../services/terminal/sanitize';
import type { BrokerState } from '../state/types';
import type { Theme } from './theme';

export interface StatusBarProps {
  modelName: string;
  brokerState: BrokerState;
  serverCounts: string;
  hint?: string;
  keys: string;
  width: number;
  theme: Theme;
}

export function StatusBar({ modelName, brokerState, serverCounts, hint, keys, width, theme }: StatusBarProps) {
  return (
    <Box width={width} justifyContent="space-between">
      <Text wrap="truncate-end">
        <Text color={theme.accent}>{sanitizeLabel(modelName) || 'no model'}</Text>
        <Text color={theme.muted}> · {brokerState} · mcp {serverCounts}</Text>
        {hint ? <Text color={theme.warn}> · {hint}</Text> : null}
      </Text>
      {hint ? null : (
        <Text color={theme.muted} wrap="truncate-start">
          {keys}
        </Text>
      )}
    </Box>
  );
}

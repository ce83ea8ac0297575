import { Box, Text } from 'ink';
import { sanitize } from '../services/terminal/sanitize';
import type { ChatItem } from '../state/types';
import type { Theme } from './theme';

export interface ChatPaneProps {
  items: ChatItem[];
  width: number;
  height: number;
  theme: Theme;
  focused: boolean;
}

function itemText(item: ChatItem): { prefix: string; text: string; color?: string; dim?: boolean } {
  switch (item.kind) {
    case 'user':
      return { prefix: '> ', text: sanitize(item.text) };
    case 'assistant':
      return { prefix: '', text: sanitize(item.text) };
    case 'tool':
      return { prefix: '⚙ ', text: `${sanitize(item.call.wireName)} ${item.state}` };
    case 'command':
      return { prefix: '$ ', text: sanitize(item.command) };
    case 'status':
      return { prefix: item.level === 'error' ? '✖ ' : '· ', text: sanitize(item.text), dim: item.level === 'info' };
  }
}

/** The transcript: the newest items that fit, bottom-aligned. */
export function ChatPane({ items, width, height, theme, focused }: ChatPaneProps) {
  const visible = items.slice(-Math.max(1, height));
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden" justifyContent="flex-end">
      {items.length === 0 ? (
        <Text color={theme.muted}>{focused ? 'Chat (focused). ' : ''}Type a message and press Enter. :help lists commands and keys.</Text>
      ) : (
        visible.map((item) => {
          const { prefix, text, dim } = itemText(item);
          const color = item.kind === 'user' ? theme.user : item.kind === 'status' && item.level === 'error' ? theme.error : undefined;
          return (
            <Text key={item.id} color={color} dimColor={dim} wrap="wrap">
              {prefix}
              {text}
            </Text>
          );
        })
      )}
    </Box>
  );
}

import { Box, Text } from 'ink';
import TextInput from 'ink-text-input';
import type { Theme } from './theme';

export interface InputBarProps {
  value: string;
  onChange: (value: string) => void;
  onSubmit: (value: string) => void;
  focused: boolean;
  width: number;
  theme: Theme;
}

export function InputBar({ value, onChange, onSubmit, focused, width, theme }: InputBarProps) {
  return (
    <Box width={width} borderStyle="round" borderColor={focused ? theme.focusBorder : theme.border} paddingX={1}>
      <Text color={theme.accent}>{'› '}</Text>
      <TextInput value={value} onChange={onChange} onSubmit={onSubmit} focus={focused} placeholder="Ask anything, :help for commands" />
    </Box>
  );
}

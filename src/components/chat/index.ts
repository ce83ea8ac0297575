export { ChatView, type ChatViewProps } from './ChatView';
export { measureTranscript, sharedTranscriptCache, TranscriptCache, transcriptWindow, type TranscriptOptions } from './transcript';
export { loadHighlighter } from './highlight';

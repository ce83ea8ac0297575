export { measureTranscript, sharedTranscriptCache, TranscriptCache, transcriptWindow, type TranscriptOptions } from './transcript';
export { loadHighlighter, subscribeHighlighter } from './highlight';
export { TICK_MS } from './common';
export { warmUpTranscript } from './warmUp';
export { frameRows, TranscriptViewport, type ViewportFrame, type ViewportInput } from './viewport';
export { isExpandable } from './items';

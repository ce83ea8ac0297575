// The context budget (README.md, "Context"): the model's window, the token counts, compaction.
export { estimateTokens } from './estimate';
export { discoverContextWindow, configuredWindow, windowFromAnswers, OLLAMA_DEFAULT_WINDOW, type ContextWindow } from './window';
export { createWindowCache, type WindowCache } from './window-cache';
export { createFileWindowStore, createMemoryWindowStore, windowKey, type WindowStore } from './window-store';
export { createCalibration, type Calibration } from './calibration';
export { createServerTokens, type ServerTokens } from './server-tokens';
export { answerReserve, compactionThreshold, measureContext, type ContextParts, type ContextUsage } from './budget';
export { effectiveHistory, planCompaction, stubOldToolResults, summaryForModel, COMPACTION_PROMPT } from './compact';
export { overflowInBody, overflowInText, type ContextOverflow } from './overflow';

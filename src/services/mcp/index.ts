// The MCP side of aish-tui as the rest of the app sees it: nothing outside services/mcp imports
// any other file of it (test/unit/boundaries.test.ts), except the client itself (client.ts: the
// SDK, the transports, the built-in server), which is only ever loaded with a dynamic import. This
// module stays light because the front ends import it before their first frame.
export type * from './types';
export type { McpManagerOptions, McpLimits } from './options';
export type { SessionSpec } from './target';
export { McpInputError } from './input-error';
export { ARGUMENTS_INVALID, CANCELLED, DISPATCH_FAILED, TOOL_REPORTED_ERROR, TRANSPORT_ERROR } from './texts';
export { taskSupportProblem } from './task-support';
export { aliasFromUrl, CONNECT_USAGE, parseConnectArguments, resolveConnectRequest } from './connect-request';
export { describeServers, describeTool, describeTools, serverJson, toolJson, toolNotFound } from './describe';
export { describeTarget } from './target';
export { acceptAnswer, fieldProblem, formFromSchema, formProblems, initialInput, initialInputs } from './elicitation-form';
export { answerFromScript, parseElicitationAnswers, scriptedElicitation, type ElicitationAnswers } from './elicitation-answers';
export { checkOpenableUrl, type UrlCheck } from './url-check';
export { normalizeRoots } from './roots';
export { instructionsSection, withInstructions } from './instructions';


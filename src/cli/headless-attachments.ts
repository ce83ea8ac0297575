// `-p` attaches what the prompt names the way the TUI does (README.md, "Files, images and
// resources"): `@path` files under the working directory through the same checks (the argument
// guard's path list, the caps, images only for a `vision: true` model) and `@alias:uri` MCP
// resources read once the servers have settled. There is nobody to fix the draft: any refusal or
// failed read is returned as a problem and the run ends before anything is sent.
import type { Attachment } from '../services/conversation/types';
import { resolveAttachments } from '../runtime/attachments/resolve';
import { findResourceReferences, readResourceAttachments } from '../runtime/resources/resource-attach';
import type { Runtime } from '../runtime/runtime';

export interface PromptAttachments {
  attachments: Attachment[];
  /** One line per reason the prompt cannot be sent as it is. */
  problems: string[];
}

/** `modelName` is the config's key for the model in use; `vision` its `vision` setting. */
export async function attachFromPrompt(runtime: Runtime, prompt: string, model: { modelName: string; vision: boolean }, signal?: AbortSignal): Promise<PromptAttachments> {
  const files = resolveAttachments(prompt, { cwd: runtime.cwd, vision: model.vision, modelName: model.modelName, guard: runtime.pathGuard });
  const aliases = runtime.mcp.servers().map((server) => server.alias);
  const references = findResourceReferences(prompt, aliases);
  const resources = references.length > 0 ? await readResourceAttachments(runtime.mcp, references, signal) : { attachments: [], problems: [] };
  return { attachments: [...files.attachments, ...resources.attachments], problems: [...files.problems, ...resources.problems] };
}

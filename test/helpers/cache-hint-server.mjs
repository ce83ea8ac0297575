// A small stdio MCP server whose list answers carry the cache fields `ttlMs` / `cacheScope`
// (from CACHE_TTL_MS / CACHE_SCOPE; none when unset). Each listed name counts the requests made,
// so a test sees whether an answer came from the server or from the client's cache.
import { createInterface } from 'node:readline';

const ttl = process.env.CACHE_TTL_MS === undefined ? undefined : Number(process.env.CACHE_TTL_MS);
const scope = process.env.CACHE_SCOPE;
const hints = { ...(ttl === undefined ? {} : { ttlMs: ttl }), ...(scope ? { cacheScope: scope } : {}) };
const counts = { resources: 0, templates: 0, prompts: 0 };

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const answer = (id, result) => send({ jsonrpc: '2.0', id, result });

createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.id === undefined) return;
  switch (message.method) {
    case 'initialize':
      return answer(message.id, {
        protocolVersion: message.params.protocolVersion,
        capabilities: { resources: { listChanged: true }, prompts: { listChanged: true } },
        serverInfo: { name: 'cache-hint-server', version: '1.0.0' },
      });
    case 'tools/list':
      return answer(message.id, { tools: [] });
    case 'resources/list':
      counts.resources += 1;
      return answer(message.id, { resources: [{ uri: 'hint://doc', name: `listed ${counts.resources}` }], ...hints });
    case 'resources/templates/list':
      counts.templates += 1;
      return answer(message.id, { resourceTemplates: [], ...hints });
    case 'prompts/list':
      counts.prompts += 1;
      return answer(message.id, { prompts: [{ name: `listed-${counts.prompts}` }], ...hints });
    case 'ping':
      return answer(message.id, {});
    default:
      return send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `no method ${message.method}` } });
  }
});

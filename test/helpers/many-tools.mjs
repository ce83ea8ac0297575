// Tool definitions of a large, realistic-looking tool set: business systems (tickets, billing,
// calendar, …), each with the usual verbs over its own objects, every tool with a description and
// an input schema. Used by the generated stdio server (many-tools-server.mjs), the tool-search
// quality test and the scale bench. Deterministic: the same count and offset give the same tools.

const DOMAINS = [
  ['tickets', 'support desk', ['ticket', 'comment', 'assignee', 'priority', 'queue', 'sla policy']],
  ['billing', 'billing system', ['invoice', 'payment', 'refund', 'subscription', 'coupon', 'tax rate']],
  ['calendar', 'calendar', ['event', 'meeting room', 'attendee', 'reminder', 'availability slot', 'recurring series']],
  ['email', 'mail server', ['message', 'draft', 'mailbox folder', 'attachment', 'signature', 'filter rule']],
  ['crm', 'customer relationship manager', ['contact', 'company account', 'deal', 'lead', 'sales pipeline', 'note']],
  ['inventory', 'warehouse inventory', ['product', 'stock level', 'warehouse', 'purchase order', 'supplier', 'shipment']],
  ['hr', 'human resources system', ['employee', 'vacation request', 'payslip', 'job opening', 'candidate', 'performance review']],
  ['deploy', 'deployment pipeline', ['release', 'environment', 'build artifact', 'rollback', 'feature flag', 'deploy key']],
  ['monitoring', 'monitoring service', ['alert', 'dashboard', 'metric', 'incident', 'uptime check', 'on-call schedule']],
  ['wiki', 'team wiki', ['page', 'space', 'page revision', 'page template', 'label', 'page comment']],
  ['analytics', 'web analytics', ['report', 'funnel', 'segment', 'pageview count', 'conversion goal', 'cohort']],
  ['storage', 'cloud object storage', ['bucket', 'object', 'access policy', 'lifecycle rule', 'signed url', 'replication']],
  ['chat', 'team chat', ['channel', 'chat message', 'thread', 'reaction', 'user status', 'pinned item']],
  ['database', 'managed database', ['table', 'index', 'backup', 'query plan', 'database user', 'migration']],
  ['forms', 'survey and forms tool', ['form', 'form response', 'question', 'form theme', 'webhook', 'quiz score']],
];

const VERBS = [
  ["list", "List all", "in the"],
  ['get', 'Get the details of one', 'from the'],
  ['create', 'Create a new', 'in the'],
  ['update', 'Change the fields of an existing', 'in the'],
  ['delete', 'Delete a', 'from the'],
  ['search', 'Search by keyword for a', 'in the'],
  ["export", "Export as CSV all", "of the"],
  ['archive', 'Archive an old', 'in the'],
];

const slug = (text) => text.replace(/[^a-z0-9]+/gi, '_').toLowerCase();

/** Every definition the generator knows, in a fixed order (720 of them). */
function allTools() {
  const tools = [];
  for (let round = 0; tools.length < 2000; round++) {
    for (const [alias, system, objects] of DOMAINS) {
      const object = objects[round % objects.length];
      const verbIndex = Math.floor(round / objects.length);
      if (verbIndex >= VERBS.length) return tools;
      const [verb, phrase, preposition] = VERBS[verbIndex];
      const plural = verb === 'list' || verb === 'export';
      const noun = plural ? `${object}s` : object;
      const properties = {};
      const required = [];
      if (verb !== 'list' && verb !== 'create' && verb !== 'search' && verb !== 'export') {
        properties[`${slug(object)}_id`] = { type: 'string', description: `id of the ${object}` };
        required.push(`${slug(object)}_id`);
      }
      if (verb === 'search') {
        properties.query = { type: 'string', description: 'words to look for' };
        required.push('query');
      }
      if (verb === 'create' || verb === 'update') properties.fields = { type: 'object', description: `the ${object}'s fields`, additionalProperties: true };
      if (verb === 'list' || verb === 'search' || verb === 'export') {
        properties.limit = { type: 'integer', minimum: 1, maximum: 500, description: 'at most this many' };
        properties.cursor = { type: 'string', description: 'where the previous page ended' };
      }
      tools.push({
        domain: alias,
        name: `${verb}_${slug(noun)}`,
        description: `${phrase} ${noun} ${preposition} ${system}. Returns JSON.`,
        inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
      });
    }
  }
  return tools;
}

const ALL = allTools();

/**
 * `count` tools starting at `offset` (wrapping), named `<domain>_<verb>_<object>` so that tools
 * of different domains never share a name on one server.
 */
export function manyTools(count, offset = 0) {
  const tools = [];
  for (let index = 0; index < count; index++) {
    const base = ALL[(offset + index) % ALL.length];
    const copy = Math.floor((offset + index) / ALL.length);
    tools.push({ name: `${base.domain}_${base.name}${copy > 0 ? `_${copy + 1}` : ''}`, description: base.description, inputSchema: base.inputSchema });
  }
  return tools;
}

export const MANY_TOOLS_TOTAL = ALL.length;

import { describe, expect, it } from 'vitest';
import { findResourceReferences, referenceProblem, resourceText } from '../../../src/runtime/resources/resource-attach';
import { completeResourceWord, literalPrefix } from '../../../src/runtime/resources/resource-index';
import { resourceLinks } from '../../../src/runtime/resources/resource-links';
import { parsePromptArguments } from '../../../src/runtime/resources/catalog-commands';
import { formatTextAttachment } from '../../../src/services/conversation/context';
import type { ResourceCatalog } from '../../../src/services/mcp/index';
import type { ChatItem } from '../../../src/state/types';

const catalog: ResourceCatalog = {
  alias: 'everything',
  subscribable: true,
  resources: [
    { uri: 'demo://resource/static/document/architecture.md', name: 'architecture.md' },
    { uri: 'demo://resource/static/document/features.md', name: 'features.md' },
  ],
  templates: [{ uriTemplate: 'demo://resource/dynamic/text/{resourceId}', name: 'text', variables: ['resourceId'] }],
};

describe('@alias:uri mentions', () => {
  it('only a known alias makes a resource; trailing punctuation is not part of the URI', () => {
    const text = 'see @everything:demo://a/b.md, and @someone:hello and @everything:demo://a/b.md again';
    expect(findResourceReferences(text, ['everything'])).toEqual([{ alias: 'everything', uri: 'demo://a/b.md', shown: '@everything:demo://a/b.md' }]);
    expect(findResourceReferences('mail me@everything:x', ['everything'])).toEqual([]);
  });

  it('a template parameter left in the URI is a problem before anything is read', () => {
    const [reference] = findResourceReferences('@everything:demo://resource/dynamic/text/{resourceId}', ['everything']);
    expect(referenceProblem(reference!)).toContain('{resourceId}');
    expect(referenceProblem({ alias: 'everything', uri: 'demo://resource/dynamic/text/7', shown: '' })).toBeUndefined();
  });

  it('a cut text says so and binary parts are their type and size only', () => {
    expect(resourceText([{ uri: 'u', kind: 'text', text: 'abc', bytes: 5000, truncated: true }])).toContain('[cut: the resource has 5 KB; the first 3 characters are here]');
    expect(resourceText([{ uri: 'demo://b', mimeType: 'image/png', kind: 'binary', bytes: 300 }])).toBe('[binary image/png demo://b, 300 B: not included]');
  });

  it('the model reads a resource as a [resource: …] block', () => {
    expect(formatTextAttachment({ path: 'everything:demo://x', data: 'hi', origin: 'resource' })).toMatch(/^\[resource: everything:demo:\/\/x\]\n/);
    expect(formatTextAttachment({ path: 'notes.txt', data: 'hi' })).toMatch(/^\[file: notes.txt\]\n/);
  });
});

describe('@ completion of resources', () => {
  it('the alias alone offers its resources, and templates up to their first parameter', () => {
    expect(completeResourceWord([catalog], 'ev')).toEqual([
      'everything:demo://resource/dynamic/text/',
      'everything:demo://resource/static/document/architecture.md',
      'everything:demo://resource/static/document/features.md',
    ]);
    expect(completeResourceWord([catalog], 'everything:demo://resource/static/document/f')).toEqual(['everything:demo://resource/static/document/features.md']);
    expect(completeResourceWord([catalog], 'other')).toEqual([]);
    expect(literalPrefix('x://{a}/{b}')).toBe('x://');
  });
});

describe('resource links in tool results', () => {
  it('are found with the alias of the tool that returned them, each once', () => {
    const tool = (alias: string, result: string): ChatItem => ({ kind: 'tool', id: result, version: 0, state: 'done', result, call: { id: 'c', wireName: `${alias}__t`, alias, tool: 't', rawArguments: '{}' } as never });
    const items = [tool('everything', '[resource link demo://resource/dynamic/text/1 (Text 1)] a\n[resource link demo://x]'), tool('everything', '[resource link demo://x]')];
    expect(resourceLinks(items)).toEqual([
      { alias: 'everything', uri: 'demo://resource/dynamic/text/1' },
      { alias: 'everything', uri: 'demo://x' },
    ]);
  });
});

describe(':prompt arguments', () => {
  it('name=value words, quoted values with spaces', () => {
    expect(parsePromptArguments('city="New York" state=NY empty=')).toEqual({ city: 'New York', state: 'NY', empty: '' });
  });
});

import { expect } from 'vitest';
import { streamChat } from '../../../src/services/broker/index';
import type { BrokerEvent, BrokerRequest, ModelConfig } from '../../../src/services/broker/types';

export function modelAt(url: string, extra: Partial<ModelConfig> = {}): ModelConfig {
  return { name: 'local', baseUrl: url, model: 'scripted-model', ...extra };
}

export const hello: BrokerRequest['messages'] = [{ role: 'user', content: 'hello' }];

/**
 * Runs streamChat to the end and checks the contract every stream keeps: exactly one `finish`,
 * and it is the last event.
 */
export async function collect(request: BrokerRequest, onEvent?: (event: BrokerEvent, events: BrokerEvent[]) => void): Promise<BrokerEvent[]> {
  const events: BrokerEvent[] = [];
  for await (const event of streamChat(request)) {
    events.push(event);
    onEvent?.(event, events);
  }
  expect(events.filter((event) => event.type === 'finish')).toHaveLength(1);
  expect(events.at(-1)?.type).toBe('finish');
  return events;
}

export function textOf(events: BrokerEvent[]): string {
  return events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
}

export function reasoningOf(events: BrokerEvent[]): string {
  return events.map((event) => (event.type === 'reasoning-delta' ? event.text : '')).join('');
}

export function finishOf(events: BrokerEvent[]): string | undefined {
  const last = events.at(-1);
  return last?.type === 'finish' ? last.reason : undefined;
}

export function errorsOf(events: BrokerEvent[]): Array<Extract<BrokerEvent, { type: 'error' }>> {
  return events.filter((event): event is Extract<BrokerEvent, { type: 'error' }> => event.type === 'error');
}

export function statusesOf(events: BrokerEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'status' ? [event.message] : []));
}

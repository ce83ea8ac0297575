import type { ApprovalAnswer, CommandAnswer, ToolCallView } from '../../src/services/conversation/types';
import type { Harness } from './render';

/** Queues a tool-call frame as the conversation loop does; the probe gets the answer. */
export async function askApproval(h: Harness, call: ToolCallView, position = 1, count = 1): Promise<{ answer?: ApprovalAnswer }> {
  const probe: { answer?: ApprovalAnswer } = {};
  void h.store
    .getState()
    .requestApproval({ call, position, count })
    .then((answer) => {
      probe.answer = answer;
    });
  await h.settle();
  return probe;
}

/** Queues a command frame; the probe gets the answer. */
export async function proposeCommand(h: Harness, command: string, id = 'cmd-1'): Promise<{ answer?: CommandAnswer }> {
  const probe: { answer?: CommandAnswer } = {};
  void h.store
    .getState()
    .requestCommand({ id, command })
    .then((answer) => {
      probe.answer = answer;
    });
  await h.settle();
  return probe;
}

import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FunctionTool,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { runtimeToolNames } from '../../protocol/runtime-tool-names';
import { streamFromResult } from '../../agents/stream-from-result';
import { previewValue } from '../../protocol/text-preview';
import { demoMemoryAnswer } from './memory-script';
import type { FieldKind } from './fields';
import { type DemoPlan, type PlannedCall, planTurn } from './plan';
import { callsOfTurn, fellThrough, summarizeTurn } from './summary';

/** Every answer of the demo model starts with this label, so nobody mistakes it for an LLM. */
export const demoLabel = '[demo model: scripted, not an LLM]';

/**
 * The offline `demo` provider's model: a fixed script, not a language model. It reads the user
 * message as a person would (paths, time zones, amounts, names it names), calls only the tools
 * whose inputs the message gives, one kind of step at a time (look around, look closer, act),
 * and ends with a summary of what happened. An agent with the memory tool gets a memory script
 * instead (see `demoMemoryAnswer`). Lets Cadre run with no key.
 */
export class DemoModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'demo';
  readonly supportedUrls = {};

  constructor(readonly modelId = 'scripted') {}

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const content = this.answer(options);
    const toolCalls = content.filter((part) => part.type === 'tool-call').length;
    return {
      content,
      finishReason: { unified: toolCalls > 0 ? 'tool-calls' : 'stop', raw: undefined },
      usage: {
        inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 0, text: 0, reasoning: 0 },
      },
      warnings: [],
    };
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    return streamFromResult(await this.doGenerate(options));
  }

  private answer(options: LanguageModelV4CallOptions): LanguageModelV4Content[] {
    const prompt = options.prompt;
    const last = prompt[prompt.length - 1];
    // Runtime tools (job_output, send_message, ...) need ids from earlier results; the script leaves them out.
    const tools = (options.tools ?? []).filter(
      (tool): tool is LanguageModelV4FunctionTool =>
        tool.type === 'function' && !(Object.values(runtimeToolNames) as string[]).includes(tool.name),
    );
    // An agent with memory: view the notes, then save to them or answer from them.
    if (tools.some((tool) => tool.name === 'memory')) return demoMemoryAnswer(prompt, demoLabel, userText);
    if (last?.role === 'user' && userText(last).startsWith('[subagent ')) {
      return [{ type: 'text', text: `${demoLabel} A background subagent reported back:\n${userText(last)}` }];
    }
    const start = prompt.map((message) => message.role).lastIndexOf('user');
    const said = start >= 0 ? userText(prompt[start]!) : '';
    if (tools.length === 0) return [{ type: 'text', text: `${demoLabel} You said: ${said}` }];
    const instructions = prompt
      .filter((message) => message.role === 'system')
      .map((message) => message.content)
      .join('\n');
    const plan = planTurn(tools, said, instructions);
    const turn = prompt.slice(start + 1);
    const stepsTaken = turn.filter(
      (message) => message.role === 'assistant' && message.content.some((part) => part.type === 'tool-call'),
    ).length;
    const calls = callsOfTurn(turn);
    const next = plan.steps[stepsTaken];
    // A person does not go on after a failed or denied call: they report it.
    const stopped = calls.some(fellThrough);
    if (next !== undefined && !stopped) {
      return [
        { type: 'text', text: `${demoLabel} Calling ${next.map(callText).join(', ')}.` },
        ...next.map((call, index) => ({
          type: 'tool-call' as const,
          toolCallId: `demo-${prompt.length}-${index}`,
          toolName: call.toolName,
          input: JSON.stringify(call.input),
        })),
      ];
    }
    if (calls.length > 0) {
      const notCalled = stopped
        ? plan.steps.slice(stepsTaken).flatMap((step) => step.map((call) => call.toolName))
        : [];
      return [{ type: 'text', text: summarizeTurn(calls, tools, notCalled, demoLabel) }];
    }
    return [{ type: 'text', text: nothingToCall(plan, said) }];
  }
}

function callText(call: PlannedCall): string {
  return call.label ? `${call.toolName}(${call.label})` : call.toolName;
}

/** The answer when the message gives no tool what it needs: what each tool would need. */
function nothingToCall(plan: DemoPlan, said: string): string {
  const needs = plan.unmet.map((tool) => `- ${tool.toolName} needs ${tool.needs.map(kindText).join(' and ')}`);
  const intro = `${demoLabel} Your message ("${previewValue(said, 80)}") names nothing my tools need, so I called none.`;
  return needs.length > 0 ? `${intro}\n${needs.join('\n')}` : intro;
}

const kindTexts: Partial<Record<FieldKind, string>> = {
  path: 'a path (e.g. notes/old.txt)',
  zone: 'a time zone (e.g. Europe/Paris)',
  amount: 'an amount (e.g. 120 EUR)',
  recipient: 'a recipient (e.g. to ACME)',
  url: 'a URL',
  email: 'an email address',
  id: 'an id (e.g. INV-42)',
  date: 'a date (YYYY-MM-DD)',
  number: 'a number',
  choice: 'one of its choices',
  text: 'a quoted text',
  structured: 'structured input',
};

function kindText(kind: FieldKind): string {
  return kindTexts[kind] ?? kind;
}

function userText(message: LanguageModelV4Prompt[number]): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => ('text' in part && typeof part.text === 'string' ? part.text : ''))
    .join(' ')
    .trim();
}

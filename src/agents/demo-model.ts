import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FunctionTool,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { runtimeToolNames } from '../protocol/runtime-tool-names';
import { streamFromResult } from './stream-from-result';
import { previewValue } from '../protocol/text-preview';
import { demoMemoryAnswer } from './demo-memory-script';

/** Every answer of the demo model starts with this label, so nobody mistakes it for an LLM. */
export const demoLabel = '[demo model: scripted, not an LLM]';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
};

/**
 * The offline `demo` provider's model: a fixed script, not a language model. On a new user
 * message it calls every available tool once (in parallel) with inputs made from the tool's
 * schema and the message; once results are in, it reports them. An agent with the memory tool
 * gets a memory script instead (see `demoMemoryAnswer`). Lets Cadre run with no key.
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
    if (last?.role === 'user' && tools.length > 0) {
      const text = userText(last);
      return [
        { type: 'text', text: `${demoLabel} Calling ${tools.map((tool) => tool.name).join(', ')}.` },
        ...tools.map((tool, index) => ({
          type: 'tool-call' as const,
          toolCallId: `demo-${prompt.length}-${index}`,
          toolName: tool.name,
          input: JSON.stringify(sampleInput(tool.inputSchema as JsonSchema, text)),
        })),
      ];
    }
    if (last?.role === 'tool') {
      const lines = last.content
        .filter((part) => part.type === 'tool-result')
        .map((part) => `- ${part.toolName}: ${describeOutput(part.output)}`);
      return [{ type: 'text', text: `${demoLabel} The tools answered:\n${lines.join('\n')}` }];
    }
    const text = last?.role === 'user' ? userText(last) : '';
    return [{ type: 'text', text: `${demoLabel} You said: ${text}` }];
  }
}

function userText(message: LanguageModelV4Prompt[number]): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => ('text' in part && typeof part.text === 'string' ? part.text : ''))
    .join(' ')
    .trim();
}

function sampleInput(schema: JsonSchema, text: string): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  // Only required fields: optional ones (run_in_background, model choices) keep their defaults.
  const required = new Set(schema.required ?? []);
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (!required.has(key)) continue;
    const type = Array.isArray(property.type) ? property.type[0] : property.type;
    if (property.enum && property.enum.length > 0) input[key] = property.enum[0];
    else if (type === 'number' || type === 'integer') input[key] = Number(/\d+/.exec(text)?.[0] ?? 1);
    else if (type === 'boolean') input[key] = true;
    else if (type === 'array') input[key] = [];
    else if (type === 'object') input[key] = {};
    else input[key] = text;
  }
  return input;
}

function describeOutput(output: { type: string; value?: unknown; reason?: string }): string {
  return previewValue(output.type === 'execution-denied' ? `denied: ${output.reason ?? 'no reason'}` : output.value);
}

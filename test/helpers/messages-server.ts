import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  StopReason,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';

/**
 * A loopback server that speaks the Anthropic Messages API (`POST /v1/messages`, non-streaming
 * JSON; https://docs.anthropic.com/en/api/messages and /en/api/errors) from a script, so tests
 * drive the real `@anthropic-ai/sdk` over real HTTP. It records every request and, like the real
 * API, rejects malformed conversations (a tool_use without its tool_result, too many
 * cache_control breakpoints) with a 400 `invalid_request_error`.
 */

/** One request as the SDK sent it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body: MessageCreateParamsNonStreaming;
}

export interface ReplyUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** An assistant message to answer with. */
export interface MessageReply {
  kind: 'message';
  content: ReplyBlock[];
  stop_reason?: StopReason;
  usage?: Partial<ReplyUsage>;
  /** Wait this long before answering (to provoke a client timeout). */
  delayMs?: number;
}

export type ReplyBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id?: string; name: string; input: unknown };

/** An API error: the status and the `error.type` the API uses for it. */
export interface ErrorReply {
  kind: 'error';
  status: number;
  type: string;
  message: string;
  headers?: Record<string, string>;
}

export type Reply = MessageReply | ErrorReply;
/** A fixed reply, or one computed from the request (to react to tool results). */
export type ScriptStep = Reply | ((request: RecordedRequest) => Reply);

export const DEFAULT_USAGE: ReplyUsage = {
  input_tokens: 100,
  output_tokens: 50,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
};

/** The API's limit on cache_control breakpoints per request. */
const MAX_CACHE_BREAKPOINTS = 4;

export class MessagesServer {
  readonly requests: RecordedRequest[] = [];
  /** Requests the script did not expect (no step left, wrong path, malformed body): should stay empty. */
  readonly unexpected: string[] = [];
  private readonly script: ScriptStep[];
  private ids = 0;

  private constructor(
    private readonly server: Server,
    script: ScriptStep[],
  ) {
    this.script = [...script];
  }

  static async start(script: ScriptStep[]): Promise<MessagesServer> {
    let self: MessagesServer | null = null;
    const server = createServer((req, res) => {
      // A script step that throws is a test bug: answer 500 and record it, never leave the SDK waiting.
      self?.handle(req, res).catch((err: unknown) => {
        self?.unexpected.push(`script step threw: ${String(err)}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(err) } }));
      });
    });
    self = new MessagesServer(server, script);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return self;
  }

  /** The base URL to give the SDK (`baseURL`); it appends `/v1/messages`. */
  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Script steps not consumed yet. */
  remaining(): number {
    return this.script.length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((err) => (err ? reject(err) : resolve())));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on('error', () => {}); // the client may have timed out and gone: nothing to answer
    const raw = await readBody(req);
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/messages') {
      this.unexpected.push(`${req.method} ${req.url}`);
      return sendError(res, { kind: 'error', status: 404, type: 'not_found_error', message: 'Not found' });
    }
    let body: MessageCreateParamsNonStreaming;
    try {
      body = JSON.parse(raw) as MessageCreateParamsNonStreaming;
    } catch (err: unknown) {
      this.unexpected.push(`unparsable body (${String(err)}): ${raw.slice(0, 100)}`);
      return sendError(res, invalidRequest('body is not JSON'));
    }
    const request: RecordedRequest = { method: req.method, path: req.url, headers: pickHeaders(req), body };
    this.requests.push(request);
    const problem = requestProblem(request);
    if (problem !== null) {
      this.unexpected.push(problem);
      return sendError(res, invalidRequest(problem));
    }
    const step = this.script.shift();
    if (step === undefined) {
      this.unexpected.push(`request ${this.requests.length} after the script ended`);
      return sendError(res, invalidRequest('script exhausted'));
    }
    const reply = typeof step === 'function' ? step(request) : step;
    if (reply.kind === 'error') return sendError(res, reply);
    if (reply.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${++this.ids}` });
    res.end(JSON.stringify(this.message(reply, body.model)));
  }

  private message(reply: MessageReply, model: string): Message {
    const content = reply.content.map((block) =>
      block.type === 'text'
        ? { type: 'text' as const, text: block.text, citations: null }
        : {
            type: 'tool_use' as const,
            id: block.id ?? `toolu_${String(++this.ids).padStart(4, '0')}`,
            name: block.name,
            input: block.input,
            caller: { type: 'direct' as const },
          },
    );
    const usage = { ...DEFAULT_USAGE, ...reply.usage };
    return {
      id: `msg_${String(++this.ids).padStart(4, '0')}`,
      type: 'message',
      role: 'assistant',
      model,
      content,
      container: null,
      diagnostics: null,
      stop_details: null,
      stop_reason:
        reply.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
      stop_sequence: null,
      usage: {
        ...usage,
        cache_creation: null,
        inference_geo: null,
        output_tokens_details: null,
        server_tool_use: null,
        service_tier: 'standard',
        speed: null,
      },
    } as Message;
  }
}

/** Builders for script steps. */
export const reply = {
  text: (text: string): ReplyBlock => ({ type: 'text', text }),
  toolUse: (name: string, input: unknown, id?: string): ReplyBlock => ({
    type: 'tool_use',
    name,
    input,
    ...(id === undefined ? {} : { id }),
  }),
  message: (content: ReplyBlock[], options: Omit<MessageReply, 'kind' | 'content'> = {}): MessageReply => ({
    kind: 'message',
    content,
    ...options,
  }),
  /** 429 as the API sends it; `retry-after` in seconds. */
  rateLimited: (retryAfterSeconds?: number): ErrorReply => ({
    kind: 'error',
    status: 429,
    type: 'rate_limit_error',
    message: 'Number of request tokens has exceeded your per-minute rate limit',
    ...(retryAfterSeconds === undefined ? {} : { headers: { 'retry-after': String(retryAfterSeconds) } }),
  }),
  overloaded: (): ErrorReply => ({
    kind: 'error',
    status: 529,
    type: 'overloaded_error',
    message: 'Overloaded',
  }),
  badRequest: (message: string): ErrorReply => invalidRequest(message),
};

/** The tool_result blocks of the request's last (user) message. */
export function lastToolResults(request: RecordedRequest): ToolResultBlockParam[] {
  return blocks(request.body.messages.at(-1)).filter(
    (b): b is ToolResultBlockParam => b.type === 'tool_result',
  );
}

/** A tool result's text, whether sent as a string or as text blocks. */
export function resultText(result: ToolResultBlockParam): string {
  if (typeof result.content === 'string') return result.content;
  return (result.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
}

/** Every text the request's last message carries (text blocks and tool results). */
export function lastMessageText(request: RecordedRequest): string {
  const last = request.body.messages.at(-1);
  if (last === undefined) return '';
  if (typeof last.content === 'string') return last.content;
  return blocks(last)
    .map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? resultText(b) : ''))
    .join('\n');
}

/** What the real API would refuse with a 400; null when the request is well formed. */
function requestProblem(request: RecordedRequest): string | null {
  const { body, headers } = request;
  // SDK 1.x sends the key as `Authorization: Bearer …`; the API also takes `x-api-key`.
  if (headers['x-api-key'] === undefined && headers.authorization === undefined) return 'no credentials sent';
  if (headers['anthropic-version'] === undefined) return 'anthropic-version header missing';
  if (typeof body.model !== 'string' || typeof body.max_tokens !== 'number')
    return 'model and max_tokens are required';
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return 'messages: at least one message is required';
  if (body.messages[0]?.role !== 'user') return 'messages: the first message must use the "user" role';
  if (countBreakpoints(body) > MAX_CACHE_BREAKPOINTS) {
    return `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided`;
  }
  return unansweredToolUse(body.messages);
}

/** Every tool_use must be answered by a tool_result in the next message (the API's rule). */
function unansweredToolUse(messages: readonly MessageParam[]): string | null {
  for (let i = 0; i < messages.length - 1; i++) {
    const uses = blocks(messages[i]).filter((b) => b.type === 'tool_use');
    const next = blocks(messages[i + 1]);
    for (const use of uses) {
      if (!next.some((b) => b.type === 'tool_result' && b.tool_use_id === use.id)) {
        return `messages.${i + 1}: tool_use ids were found without tool_result blocks immediately after: ${use.id}`;
      }
    }
  }
  return null;
}

function countBreakpoints(body: MessageCreateParamsNonStreaming): number {
  const system = typeof body.system === 'string' || body.system === undefined ? [] : body.system;
  const all: unknown[] = [...system, ...(body.tools ?? []), ...body.messages.flatMap(blocks)];
  return all.filter((b) => typeof b === 'object' && b !== null && 'cache_control' in b && b.cache_control)
    .length;
}

function blocks(message: MessageParam | undefined): ContentBlockParam[] {
  if (message === undefined || typeof message.content === 'string') return [];
  return message.content as ContentBlockParam[];
}

function invalidRequest(message: string): ErrorReply {
  return { kind: 'error', status: 400, type: 'invalid_request_error', message };
}

function sendError(res: ServerResponse, error: ErrorReply): void {
  res.writeHead(error.status, { 'content-type': 'application/json', ...error.headers });
  res.end(JSON.stringify({ type: 'error', error: { type: error.type, message: error.message } }));
}

function pickHeaders(req: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(req.headers))
    out[key] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

import Anthropic from '@anthropic-ai/sdk';

export interface ClaudeClientOptions {
  apiKey: string;
  /** Another endpoint (a proxy, the test server); null = the public API. Never read from the environment here. */
  baseURL?: string | null;
  /** Per-request timeout; a timed-out request is retried by the engine like a 529. */
  timeoutMs?: number;
}

/** The part of the SDK client the engine uses, so tests and wrappers can hand in their own. */
export type MessagesClient = Pick<Anthropic, 'messages'>;

const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * The real SDK client. Its own retries are off (`maxRetries: 0`): the engine retries itself,
 * so that backoff sleeps are injectable, bounded by the failure's wall-time budget and logged
 * in the transcript.
 */
export function createClaudeClient(options: ClaudeClientOptions): Anthropic {
  return new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? null,
    maxRetries: 0,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
}

import { z } from 'zod';

/** A stack frame's part in the failure: where it broke, the test itself, or a frame between. */
export const LocationRole = z.enum(['failure', 'test', 'frame']);
export type LocationRole = z.infer<typeof LocationRole>;

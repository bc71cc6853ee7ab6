export { charsetOf, type Decoded, decodeBytes } from './decode.ts';

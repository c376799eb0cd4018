import { randomBase62 } from '../../lib/secrets.ts';

/**
 * A PIX end-to-end id in the Banco Central format: `E`, the payer institution's 8-digit ISPB, the
 * payment's UTC date and time (yyyyMMddHHmm) and 11 random letters and digits (32 characters).
 * The sandbox uses ISPB 00000000, which no real institution has.
 */
export function sandboxEndToEndId(at: Date): string {
  return endToEndId('00000000', at);
}

export function endToEndId(ispb: string, at: Date): string {
  const stamp = at.toISOString().replace(/\D/g, '').slice(0, 12);
  return `E${ispb}${stamp}${randomBase62(11)}`;
}

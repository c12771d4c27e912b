const UUID_HEX = /^[0-9a-f]{32}$/;

/**
 * Wire ids of queued contact jobs: a prefix plus the row's uuid without dashes
 * (`imp_…` for imports as the spec shows, `blk_…` for bulk jobs, `ers_…` for erasures, `exp_…` for bulk exports).
 */
export function jobIdCodec(prefix: 'imp' | 'blk' | 'ers' | 'exp') {
  return {
    toWire(uuid: string): string {
      return `${prefix}_${uuid.replace(/-/g, '')}`;
    },
    /** The row uuid, or null when the wire id is malformed (callers answer 404). */
    fromWire(wire: string): string | null {
      if (typeof wire !== 'string' || !wire.startsWith(`${prefix}_`)) return null;
      const hex = wire.slice(prefix.length + 1);
      if (!UUID_HEX.test(hex)) return null;
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
}

export const importJobIds = jobIdCodec('imp');
export const bulkJobIds = jobIdCodec('blk');
export const erasureJobIds = jobIdCodec('ers');
export const exportJobIds = jobIdCodec('exp');

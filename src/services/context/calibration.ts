// The token estimate (estimate.ts) corrected by what the server reported. After each request the
// ratio between the server's `usage.prompt_tokens` and our estimate of that same request is kept
// per model; the next estimate is multiplied by it. The ratio moves halfway towards each new
// measurement (one odd request does not swing the meter) and stays within 0.5–2.5.

const MIN_RATIO = 0.5;
const MAX_RATIO = 2.5;

export interface Calibration {
  /** The estimate corrected for this model. */
  apply(model: string, estimated: number): number;
  /** One measurement: our estimate of a request, and the prompt tokens the server counted for it. */
  record(model: string, estimated: number, reported: number): void;
  /** The current ratio (1 before any measurement). */
  ratio(model: string): number;
  /** Measurements so far for this model. */
  samples(model: string): number;
}

export function createCalibration(): Calibration {
  const ratios = new Map<string, { ratio: number; samples: number }>();
  return {
    apply(model, estimated) {
      return Math.round(estimated * (ratios.get(model)?.ratio ?? 1));
    },
    record(model, estimated, reported) {
      if (!(estimated > 0) || !(reported > 0)) return;
      const measured = Math.min(MAX_RATIO, Math.max(MIN_RATIO, reported / estimated));
      const known = ratios.get(model);
      ratios.set(model, known ? { ratio: (known.ratio + measured) / 2, samples: known.samples + 1 } : { ratio: measured, samples: 1 });
    },
    ratio: (model) => ratios.get(model)?.ratio ?? 1,
    samples: (model) => ratios.get(model)?.samples ?? 0,
  };
}

/**
 * Property tests run with a fixed seed unless VCR_PROPERTY_SEED says otherwise, so a CI run is
 * reproducible (one red run must mean a real defect). Explore with other seeds locally:
 *   VCR_PROPERTY_SEED=$RANDOM VCR_PROPERTY_RUNS=20000 npx mocha test/reliability/canonical.property.test.ts
 */
import fc from "fast-check";

export const PROPERTY_SEED = Number(process.env.VCR_PROPERTY_SEED ?? 20261130);
fc.configureGlobal({ seed: PROPERTY_SEED });

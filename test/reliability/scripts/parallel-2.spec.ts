// One of four spec files that `mocha --parallel --jobs 4` runs in four workers (see parallelSpec.ts).
import { participantSuite } from "./parallelSpec";

participantSuite(2);

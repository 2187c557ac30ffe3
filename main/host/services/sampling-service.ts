import type { SamplingAnswer, SamplingRequestData } from '../../../preload/contract';
import { HarborError } from '../errors';
import type { Sampler } from '../sampling/sampler';

/**
 * The sampling reviews as the front doors see them: what waits for the person, their answers,
 * and the CLI's --allow-sampling.
 */
export class SamplingService {
  constructor(private readonly sampler: Sampler) {}

  /** Review stages still waiting (a reloaded window shows them again). */
  pending(): SamplingRequestData[] {
    return this.sampler.reviews.requests();
  }

  /**
   * The person's answer to one stage. Unknown or finished ids are ignored (false); an edit that
   * does not fit the stage is BAD_REQUEST saying what is wrong, and the stage keeps waiting.
   */
  respond(answer: SamplingAnswer): boolean {
    const { id, ...decision } = answer;
    const outcome = this.sampler.reviews.answer(id, decision);
    if (outcome.kind === 'refused') throw new HarborError('BAD_REQUEST', `The edit cannot be used: ${outcome.problem}.`);
    return outcome.kind === 'settled';
  }

  /** Approves every sampling request of this run that the registry says to ask about (CLI --allow-sampling). */
  approveForThisRun(): void {
    this.sampler.approveForThisRun();
  }
}

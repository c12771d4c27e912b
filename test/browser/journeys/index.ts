import type { Journey } from '../harness';
import { accountJourney } from './account';

/**
 * The journeys, in order: each may rely on the state the earlier ones left (the signed-in user,
 * the project, its domain, template and contacts). Add a journey by appending it here.
 */
export const JOURNEYS: Journey[] = [accountJourney];

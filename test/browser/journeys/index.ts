import type { Journey } from '../harness';
import { accountJourney } from './account';
import { campaignsJourney } from './campaigns';
import { contactsJourney } from './contacts';
import { corsJourney } from './cors';
import { domainsJourney } from './domains';
import { everyPageJourney } from './every-page';
import { previewsJourney } from './previews';
import { recoveryJourney } from './recovery';
import { segmentsJourney } from './segments';
import { settingsJourney } from './settings';
import { templatesJourney } from './templates';
import { webhooksJourney } from './webhooks';
import { workflowsJourney } from './workflows';

/**
 * The journeys, in order: each may rely on the state the earlier ones left (the signed-in user,
 * the project, its domain, template and contacts). Add a journey by appending it here.
 */
export const JOURNEYS: Journey[] = [accountJourney, recoveryJourney, domainsJourney, templatesJourney, contactsJourney, settingsJourney, segmentsJourney, campaignsJourney, previewsJourney, workflowsJourney, webhooksJourney, everyPageJourney, corsJourney];

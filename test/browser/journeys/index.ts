import type { Journey } from '../harness';
import { abTestJourney } from './ab-test';
import { accountJourney } from './account';
import { campaignResultsJourney } from './campaign-results';
import { campaignsJourney } from './campaigns';
import { consentJourney } from './consent';
import { contactsJourney } from './contacts';
import { corsJourney } from './cors';
import { deliveryJourney } from './delivery';
import { domainsJourney } from './domains';
import { everyPageJourney } from './every-page';
import { importMappingJourney } from './import-mapping';
import { previewsJourney } from './previews';
import { recoveryJourney } from './recovery';
import { segmentsJourney } from './segments';
import { settingsJourney } from './settings';
import { templatesJourney } from './templates';
import { topicsJourney } from './topics';
import { webhooksJourney } from './webhooks';
import { workflowsJourney } from './workflows';

/**
 * The journeys, in order: each may rely on the state the earlier ones left (the signed-in user,
 * the project, its domain, template and contacts). Add a journey by appending it here.
 */
export const JOURNEYS: Journey[] = [accountJourney, recoveryJourney, domainsJourney, templatesJourney, contactsJourney, settingsJourney, segmentsJourney, topicsJourney, campaignsJourney, campaignResultsJourney, deliveryJourney, previewsJourney, consentJourney, workflowsJourney, webhooksJourney, importMappingJourney, everyPageJourney, corsJourney, abTestJourney];

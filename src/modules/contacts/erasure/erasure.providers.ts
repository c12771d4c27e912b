import { ErasureProcessor } from '../worker/erasure.processor';
import { ErasureRunner } from './erasure-runner';
import { ErasureService } from './erasure.service';
import { ErasuresRepository } from './erasures.repository';

export { ErasureController } from './erasure.controller';

/** Erasures' providers, registered by ContactsModule. */
export const ERASURE_PROVIDERS = [ErasuresRepository, ErasureService, ErasureRunner, ErasureProcessor];

import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { encryptSecret } from '../../platform/crypto';
import { type Principal, requireManager } from '../auth';
import { DeliveriesStore } from './deliveries.store';
import type { CreateWebhookDto } from './dto/create-webhook.dto';
import type { UpdateWebhookDto } from './dto/update-webhook.dto';
import { type CreatedWebhookResponse, toWebhookResponse, type WebhookResponse, type WebhookSecretResponse } from './dto/webhook.response';
import type { EndpointRow } from './webhooks.rows';
import { newWebhookSecret } from './webhook-signing';
import { tooManyEndpoints, webhookNotFound } from './webhooks.errors';
import { type EndpointChanges, WebhooksRepository } from './webhooks.repository';

/** docs/decisions.md#event-webhooks: at most 20 endpoints a project (the 21st is 422). */
export const MAX_ENDPOINTS_PER_PROJECT = 20;
/** After a rotation the previous secret signs along this long. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 3600_000;

/** A project's webhook endpoints: create, read, change, delete, rotate the secret. */
@Injectable()
export class WebhooksService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly repository: WebhooksRepository,
    private readonly deliveries: DeliveriesStore,
  ) {}

  async list(projectId: string): Promise<WebhookResponse[]> {
    return (await this.repository.list(projectId)).map((e) => toWebhookResponse(e));
  }

  async get(projectId: string, id: string): Promise<WebhookResponse> {
    return toWebhookResponse(await this.find(projectId, id));
  }

  /** The endpoint row (its encrypted secrets included); 404 when the project has no such endpoint. */
  async find(projectId: string, id: string): Promise<EndpointRow> {
    const endpoint = await this.repository.findOne(projectId, id);
    if (!endpoint) throw webhookNotFound();
    return endpoint;
  }

  async create(principal: Principal, projectId: string, dto: CreateWebhookDto): Promise<CreatedWebhookResponse> {
    requireManager(principal);
    const secret = newWebhookSecret();
    const id = await this.repository.insertWithin(projectId, MAX_ENDPOINTS_PER_PROJECT, {
      url: dto.url,
      description: normalizeDescription(dto.description),
      events: unique(dto.events),
      enabled: dto.enabled ?? true,
      secret: encryptSecret(this.config.appSecret, 'webhook-secret', secret),
    });
    if (!id) throw tooManyEndpoints(MAX_ENDPOINTS_PER_PROJECT);
    return { ...(await this.get(projectId, id)), secret };
  }

  /** Disabling (by hand) ends the endpoint's pending deliveries failed; enabling resumes with new events and clears `disabledReason`. */
  async update(principal: Principal, projectId: string, id: string, dto: UpdateWebhookDto): Promise<WebhookResponse> {
    requireManager(principal);
    const changes: EndpointChanges = {};
    if (dto.url !== undefined) changes.url = dto.url;
    if (dto.events !== undefined) changes.events = unique(dto.events);
    if (dto.description !== undefined) changes.description = normalizeDescription(dto.description);
    if (dto.enabled !== undefined) changes.enabled = dto.enabled;
    const before = await this.find(projectId, id);
    // Enabling a disabled endpoint first ends any pending delivery a fan-out wrote while it was
    // being disabled (none is written while it is disabled): it resumes with new events only.
    if (dto.enabled === true && !before.enabled) await this.deliveries.failPendingOfEndpoints([id], 'endpoint disabled');
    if (!(await this.repository.update(projectId, id, changes))) throw webhookNotFound();
    // Disabling ends the pending deliveries: a disabled endpoint receives nothing.
    if (dto.enabled === false) await this.deliveries.failPendingOfEndpoints([id], 'endpoint disabled');
    return this.get(projectId, id);
  }

  async remove(principal: Principal, projectId: string, id: string): Promise<void> {
    requireManager(principal);
    if (!(await this.repository.delete(projectId, id))) throw webhookNotFound();
  }

  /** A new secret; the current one becomes the previous one and signs along for 24 hours (two signatures per request). */
  async rotateSecret(principal: Principal, projectId: string, id: string): Promise<WebhookSecretResponse> {
    requireManager(principal);
    const secret = newWebhookSecret();
    const rotated = await this.repository.rotateSecret(projectId, id, encryptSecret(this.config.appSecret, 'webhook-secret', secret), new Date(Date.now() + PREVIOUS_SECRET_TTL_MS));
    if (!rotated) throw webhookNotFound();
    return { secret };
  }
}

const unique = (values: string[]): string[] => [...new Set(values)];

/** Blank is no description. */
const normalizeDescription = (value: string | null | undefined): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

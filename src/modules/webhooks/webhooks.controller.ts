import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../platform/http/openapi-errors';
import { ApiCursorPage, ApiJson, ApiList, ApiNoContent } from '../../platform/http/openapi-responses';
import { ParseUuidPipe } from '../../platform/http/parse-uuid.pipe';
import { Audited, bodyFieldsOf, fromParam, fromResult } from '../audit';
import { CurrentPrincipal, CurrentProject, SecretKey } from '../auth';
import type { Principal } from '../auth';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { DeliveryDetailResponse, DeliveryResponse } from './dto/delivery.response';
import { ListDeliveriesQuery } from './dto/list-deliveries.query';
import { ReplayResponse, ReplayWebhookDto } from './dto/replay-webhook.dto';
import { UpdateWebhookDto } from './dto/update-webhook.dto';
import { CreatedWebhookResponse, WebhookResponse, WebhookSecretResponse, WebhookTestResponse } from './dto/webhook.response';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { deliveryNotFound, webhookNotFound } from './webhooks.errors';
import { WebhooksService } from './webhooks.service';

const ROLE_403 = [403, 'A dashboard session whose role is below ADMIN'] as const;
const endpointId = () => new ParseUuidPipe(webhookNotFound);

@ApiTags('webhooks')
@Controller('webhooks')
@SecretKey()
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  @Post()
  @Audited('webhook.created', { target: { type: 'webhook', id: fromResult('id') } })
  @ApiOperation({ summary: 'Create a webhook endpoint' })
  @ApiErrors([...ROLE_403], [422, 'A bad url, empty or malformed events, a description too long, or the 21st endpoint of the project'])
  @ApiJson(201, CreatedWebhookResponse, 'The endpoint, with its signing secret (shown only here and by rotate-secret)')
  create(@CurrentPrincipal() principal: Principal, @CurrentProject() projectId: string, @Body() dto: CreateWebhookDto): Promise<CreatedWebhookResponse> {
    return this.webhooks.create(principal, projectId, dto);
  }

  @Get()
  @ApiOperation({ summary: 'List the webhook endpoints' })
  @ApiList(WebhookResponse, 'Endpoints of the project, oldest first')
  list(@CurrentProject() projectId: string): Promise<WebhookResponse[]> {
    return this.webhooks.list(projectId);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a webhook endpoint' })
  @ApiErrors(404)
  @ApiJson(200, WebhookResponse, 'The endpoint')
  get(@CurrentProject() projectId: string, @Param('id', endpointId()) id: string): Promise<WebhookResponse> {
    return this.webhooks.get(projectId, id);
  }

  @Patch(':id')
  @Audited('webhook.updated', { target: { type: 'webhook', id: fromParam('id') }, changes: bodyFieldsOf(UpdateWebhookDto) })
  @ApiOperation({ summary: 'Update a webhook endpoint' })
  @ApiErrors([...ROLE_403], 404, 422)
  @ApiJson(200, WebhookResponse, 'The endpoint after the change')
  update(@CurrentPrincipal() principal: Principal, @CurrentProject() projectId: string, @Param('id', endpointId()) id: string, @Body() dto: UpdateWebhookDto): Promise<WebhookResponse> {
    return this.webhooks.update(principal, projectId, id, dto);
  }

  @Delete(':id')
  @Audited('webhook.deleted', { target: { type: 'webhook', id: fromParam('id') } })
  @ApiOperation({ summary: 'Delete a webhook endpoint' })
  @ApiErrors([...ROLE_403], 404)
  @HttpCode(204)
  @ApiNoContent('Deleted, with its deliveries')
  async remove(@CurrentPrincipal() principal: Principal, @CurrentProject() projectId: string, @Param('id', endpointId()) id: string): Promise<void> {
    await this.webhooks.remove(principal, projectId, id);
  }

  @Post(':id/rotate-secret')
  @Audited('webhook.secret_rotated', { target: { type: 'webhook', id: fromParam('id') } })
  @HttpCode(200)
  @ApiOperation({ summary: "Rotate a webhook endpoint's signing secret" })
  @ApiErrors([...ROLE_403], 404)
  @ApiJson(200, WebhookSecretResponse, 'The new secret; for 24 hours the previous one signs too (two signatures per request)')
  rotateSecret(@CurrentPrincipal() principal: Principal, @CurrentProject() projectId: string, @Param('id', endpointId()) id: string): Promise<WebhookSecretResponse> {
    return this.webhooks.rotateSecret(principal, projectId, id);
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a test event to a webhook endpoint' })
  @ApiErrors([...ROLE_403], 404)
  @ApiJson(200, WebhookTestResponse, "The attempt's outcome (also in the deliveries log)")
  test(@CurrentPrincipal() principal: Principal, @CurrentProject() projectId: string, @Param('id', endpointId()) id: string): Promise<WebhookTestResponse> {
    return this.deliveries.test(principal, projectId, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: "List a webhook endpoint's deliveries" })
  @ApiErrors(404, 422)
  @ApiCursorPage(DeliveryResponse, 'Deliveries, newest first (kept 30 days)')
  listDeliveries(@CurrentProject() projectId: string, @Param('id', endpointId()) id: string, @Query() query: ListDeliveriesQuery) {
    return this.deliveries.list(projectId, id, query);
  }

  @Get(':id/deliveries/:deliveryId')
  @ApiOperation({ summary: 'Get a delivery with its attempts' })
  @ApiErrors(404)
  @ApiJson(200, DeliveryDetailResponse, 'The delivery, its request body and every attempt')
  getDelivery(
    @CurrentProject() projectId: string,
    @Param('id', endpointId()) id: string,
    @Param('deliveryId', new ParseUuidPipe(deliveryNotFound)) deliveryId: string,
  ): Promise<DeliveryDetailResponse> {
    return this.deliveries.get(projectId, id, deliveryId);
  }

  @Post(':id/deliveries/:deliveryId/retry')
  @HttpCode(202)
  @ApiOperation({ summary: 'Retry a delivery now' })
  @ApiErrors([...ROLE_403], 404, [409, 'The endpoint is disabled'])
  @ApiJson(202, DeliveryResponse, 'The delivery, pending: a worker makes the attempt now')
  retry(
    @CurrentPrincipal() principal: Principal,
    @CurrentProject() projectId: string,
    @Param('id', endpointId()) id: string,
    @Param('deliveryId', new ParseUuidPipe(deliveryNotFound)) deliveryId: string,
  ): Promise<DeliveryResponse> {
    return this.deliveries.retry(principal, projectId, id, deliveryId);
  }

  @Post(':id/replay')
  @HttpCode(202)
  @ApiOperation({ summary: 'Replay the events of a time window to a webhook endpoint' })
  @ApiErrors([...ROLE_403], 404, [409, 'The endpoint is disabled'], [422, 'since more than 7 days ago, until not after since, or a malformed date'])
  @ApiJson(202, ReplayResponse, 'Deliveries queued, one per matching event of the window')
  replay(@CurrentPrincipal() principal: Principal, @CurrentProject() projectId: string, @Param('id', endpointId()) id: string, @Body() dto: ReplayWebhookDto): Promise<ReplayResponse> {
    return this.deliveries.replay(principal, projectId, id, dto);
  }
}

import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { OptionalNotNull } from '../../../platform/http/validation';
import { IsBoolean, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { TRIGGER_TYPES, type TriggerType } from '../entities/workflow.entity';
import { ADDABLE_STEP_TYPES, STEP_CONFIG_SCHEMA } from '../graph/step-config';

/** A step's `position`: the editor's, never read by the service. */
export const STEP_POSITION: ApiPropertyOptions = {
  description: 'Where the graph editor draws the step, e.g. {"x": 120, "y": 80}; stored as sent, never read by the service',
  type: 'object',
  additionalProperties: true,
};

const EVENT_NAME = 'Event that starts the workflow for its contact (tracked with /v1/track or emitted, e.g. contact.subscribed, contact.topic.subscribed, contact.snoozed, segment.<slug>.entry, email.open)';

export class TriggerConfigDto {
  @ApiProperty({ description: EVENT_NAME, type: String, maxLength: 200 })
  @IsString() @IsNotEmpty() @MaxLength(200) eventName: string;
}

export class CreateWorkflowDto {
  @ApiProperty({ description: 'Name', type: String, maxLength: 200 })
  @IsString() @IsNotEmpty() @MaxLength(200) name: string;
  @ApiPropertyOptional({ description: 'Free-text description', type: String, maxLength: 1000, nullable: true })
  @IsOptional() @IsString() @MaxLength(1000) description?: string | null;
  @ApiProperty({ description: `${EVENT_NAME}; the workflow starts with triggerType EVENT, disabled`, type: String, maxLength: 200 })
  @IsString() @IsNotEmpty() @MaxLength(200) eventName: string;
  @ApiPropertyOptional({ description: 'Let a contact enter again once its previous execution has ended (default false: at most once ever)', type: Boolean })
  @IsOptional() @IsBoolean() allowReentry?: boolean;
}

export class UpdateWorkflowDto {
  @ApiPropertyOptional({ description: 'Name', type: String, maxLength: 200 })
  @OptionalNotNull() @IsString() @IsNotEmpty() @MaxLength(200) name?: string;
  @ApiPropertyOptional({ description: 'Free-text description; null or empty clears it', type: String, maxLength: 1000, nullable: true })
  @IsOptional() @IsString() @MaxLength(1000) description?: string | null;
  @ApiPropertyOptional({ description: 'EVENT (started by the event) or MANUAL (started only with POST /workflows/:id/executions)', enum: TRIGGER_TYPES })
  @OptionalNotNull() @IsIn(TRIGGER_TYPES) triggerType?: TriggerType;
  @ApiPropertyOptional({ description: 'New trigger event (wins over eventName when both are sent)', type: () => TriggerConfigDto })
  @OptionalNotNull() @IsObject() @ValidateNested() @Type(() => TriggerConfigDto) triggerConfig?: TriggerConfigDto;
  @ApiPropertyOptional({ description: 'New trigger event (same as triggerConfig.eventName)', type: String, maxLength: 200 })
  @OptionalNotNull() @IsString() @IsNotEmpty() @MaxLength(200) eventName?: string;
  @ApiPropertyOptional({ description: 'Whether events start executions', type: Boolean })
  @OptionalNotNull() @IsBoolean() enabled?: boolean;
  @ApiPropertyOptional({ description: 'Let a contact enter again once its previous execution has ended', type: Boolean })
  @OptionalNotNull() @IsBoolean() allowReentry?: boolean;
}

export class CreateStepDto {
  @ApiProperty({ description: 'Step type (TRIGGER is created with the workflow); it never changes', enum: ADDABLE_STEP_TYPES })
  @IsIn(['SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'WEBHOOK', 'UPDATE_CONTACT', 'EXIT']) type: string;
  @ApiPropertyOptional({ description: 'Display name', type: String, maxLength: 200, nullable: true })
  @IsOptional() @IsString() @MaxLength(200) name?: string | null;
  @ApiProperty(STEP_CONFIG_SCHEMA)
  @IsObject() config: Record<string, unknown>;
  @ApiPropertyOptional(STEP_POSITION)
  @IsOptional() position?: unknown;
}

export class UpdateStepDto {
  @ApiPropertyOptional({ description: 'Display name; null or empty clears it', type: String, maxLength: 200, nullable: true })
  @IsOptional() @IsString() @MaxLength(200) name?: string | null;
  @ApiPropertyOptional({ ...STEP_CONFIG_SCHEMA, description: "New settings, replacing the old ones; the shape of the step's type (a TRIGGER step's config is changed on the workflow)" })
  @OptionalNotNull() @IsObject() config?: Record<string, unknown>;
  @ApiPropertyOptional(STEP_POSITION)
  @IsOptional() position?: unknown;
}

export class CreateTransitionDto {
  @ApiProperty({ description: 'Step the transition leaves (UUID, of this workflow); only a CONDITION or WAIT_FOR_EVENT step has more than one', type: String })
  @IsString() @IsNotEmpty() fromStepId: string;
  @ApiProperty({ description: 'Step it leads to (UUID, of this workflow)', type: String })
  @IsString() @IsNotEmpty() toStepId: string;
  @ApiPropertyOptional({ description: 'Required from a CONDITION step: which result takes this transition (one transition each)', enum: ['yes', 'no'], nullable: true })
  @IsOptional() @IsString() branch?: string | null;
  @ApiPropertyOptional({ description: 'Required from a WAIT_FOR_EVENT step: EVENT (the event came) or TIMEOUT (one transition each)', enum: ['EVENT', 'TIMEOUT'], nullable: true })
  @IsOptional() @IsString() waitOutcome?: string | null;
}

export class StartExecutionDto {
  @ApiProperty({ description: 'Contact to run the workflow for (starts whether or not the workflow is enabled)', type: String })
  @IsString() @IsNotEmpty() contactId: string;
  @ApiPropertyOptional({ description: 'Per-execution variables, read as `workflow.<key>` in conditions and templates', type: 'object', additionalProperties: true })
  @IsOptional() @IsObject() context?: Record<string, unknown>;
}

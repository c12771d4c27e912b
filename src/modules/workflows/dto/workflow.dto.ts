import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { TRIGGER_TYPES, type TriggerType } from '../entities/workflow.entity';

export class TriggerConfigDto {
  @IsString() @IsNotEmpty() @MaxLength(200) eventName: string;
}

export class CreateWorkflowDto {
  @IsString() @IsNotEmpty() @MaxLength(200) name: string;
  @IsOptional() @IsString() @MaxLength(1000) description?: string | null;
  @IsString() @IsNotEmpty() @MaxLength(200) eventName: string;
  @IsOptional() @IsBoolean() allowReentry?: boolean;
}

export class UpdateWorkflowDto {
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200) name?: string;
  @IsOptional() @IsString() @MaxLength(1000) description?: string | null;
  @IsOptional() @IsIn(TRIGGER_TYPES) triggerType?: TriggerType;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => TriggerConfigDto) triggerConfig?: TriggerConfigDto;
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200) eventName?: string;
  @IsOptional() @IsBoolean() enabled?: boolean;
  @IsOptional() @IsBoolean() allowReentry?: boolean;
}

export class CreateStepDto {
  @IsIn(['SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'WEBHOOK', 'UPDATE_CONTACT', 'EXIT']) type: string;
  @IsOptional() @IsString() @MaxLength(200) name?: string | null;
  @IsObject() config: Record<string, unknown>;
  @IsOptional() position?: unknown;
}

export class UpdateStepDto {
  @IsOptional() @IsString() @MaxLength(200) name?: string | null;
  @IsOptional() @IsObject() config?: Record<string, unknown>;
  @IsOptional() position?: unknown;
}

export class CreateTransitionDto {
  @IsString() @IsNotEmpty() fromStepId: string;
  @IsString() @IsNotEmpty() toStepId: string;
  @IsOptional() @IsString() branch?: string | null;
  @IsOptional() @IsString() waitOutcome?: string | null;
}

export class StartExecutionDto {
  @IsString() @IsNotEmpty() contactId: string;
  @IsOptional() @IsObject() context?: Record<string, unknown>;
}

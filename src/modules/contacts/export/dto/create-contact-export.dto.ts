import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsDefined, IsIn, IsObject, IsOptional, IsUUID, ValidateBy, type ValidationOptions } from 'class-validator';
import type { ContactExportFormat } from '../contact-exports.rows';

export const CONTACT_EXPORT_FORMATS: readonly ContactExportFormat[] = ['csv', 'ndjson'];

/** The property may be given only when `other` is not (absent or null). */
const NotWith = (other: string, options: ValidationOptions): PropertyDecorator =>
  ValidateBy({ name: 'notWith', validator: { validate: (_value, args) => (args?.object as Record<string, unknown>)[other] == null } }, options);

/** A segment or a filter tree (checked by the filter engine against the project: 422 naming `filter…`), or neither for every contact. */
export class CreateContactExportDto {
  @IsDefined({ message: 'format is required' })
  @IsIn(CONTACT_EXPORT_FORMATS, { message: 'format must be csv or ndjson' })
  @ApiProperty({ description: 'csv (one column per data key) or ndjson (one contact per line, as the API shows it)', enum: CONTACT_EXPORT_FORMATS })
  format!: ContactExportFormat;

  @IsOptional()
  @IsUUID('all', { message: 'segmentId must be a UUID' })
  @ApiPropertyOptional({ description: "Export this segment's members (404 for a segment of another project)", type: String, format: 'uuid' })
  segmentId?: string;

  @IsOptional()
  @NotWith('segmentId', { message: 'give segmentId or filter, not both' })
  @IsObject({ message: 'filter must be a filter tree object' })
  @ApiPropertyOptional({ description: 'Export the contacts this filter tree selects (the segments condition language); without segmentId and filter, every contact', allOf: [{ $ref: getSchemaPath('FilterTreeSchema') }] })
  filter?: Record<string, unknown>;
}

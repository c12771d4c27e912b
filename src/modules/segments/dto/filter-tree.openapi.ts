import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OPERATOR_ALIASES, OPERATORS, UNITS } from '../../filters/filter.types';
import { FILTER_LIMITS } from '../../filters/validate-filter';

/**
 * The filter tree (segment `condition`, campaign `audienceCondition`) for the OpenAPI document.
 * It is checked by hand (validate-filter.ts, 422 naming the path of each problem), so these
 * classes only describe it; their limits come from the validator's own constants.
 */
export class FilterSchema {
  @ApiProperty({
    description:
      'What to compare: `email`, `subscribed`, `createdAt`, `updatedAt`, `data.<key>` (nested keys as `data.profile.tier`), `event.<name>` (event operators), ' +
      '`email.<sent|delivered|opened|clicked|bounced|complained>` (event operators over the contact\'s emails) or `segment.<segmentId>` (memberOfSegment, notMemberOfSegment)',
    type: String,
    maxLength: FILTER_LIMITS.fieldLength,
    example: 'data.plan',
  })
  field!: string;

  @ApiProperty({
    description: `Comparison; ${Object.entries(OPERATOR_ALIASES)
      .map(([alias, op]) => `\`${alias}\` = ${op}`)
      .join(', ')}. Which operators apply depends on the field (event and email fields take the triggered* operators, segment fields the membership ones)`,
    enum: [...OPERATORS, ...Object.keys(OPERATOR_ALIASES)],
  })
  operator!: string;

  @ApiPropertyOptional({
    description:
      'Value to compare with, typed like the field (numbers numerically, dates as ISO 8601 instants); a positive whole number of `unit`s with within, olderThan, triggeredWithin, ' +
      'triggeredOlderThan and notTriggeredWithin; omitted with exists, notExists, triggered, notTriggered, memberOfSegment and notMemberOfSegment',
    oneOf: [{ type: 'string', maxLength: FILTER_LIMITS.stringValue }, { type: 'number' }, { type: 'boolean' }],
  })
  value?: string | number | boolean;

  @ApiPropertyOptional({ description: 'Time unit, required with within, olderThan, triggeredWithin, triggeredOlderThan and notTriggeredWithin', enum: Object.keys(UNITS) })
  unit?: string;
}

export class FilterTreeSchema {
  @ApiPropertyOptional({ description: 'How the groups combine: AND (default) or OR', enum: ['AND', 'OR'] })
  logic?: 'AND' | 'OR';

  @ApiProperty({ description: `Groups of filters (at most ${FILTER_LIMITS.groups} groups and ${FILTER_LIMITS.filters} filters in the whole tree)`, type: () => [FilterGroupSchema] })
  groups!: FilterGroupSchema[];
}

/** Declared after the tree: its `conditions` property's design type is the tree class. */
export class FilterGroupSchema {
  @ApiPropertyOptional({ description: 'Filters that must all match (AND); a group needs filters, conditions or both', type: () => [FilterSchema] })
  filters?: FilterSchema[];

  @ApiPropertyOptional({ description: `A nested tree, ANDed with this group's filters (at most ${FILTER_LIMITS.depth} levels deep)`, type: () => FilterTreeSchema })
  conditions?: FilterTreeSchema;
}

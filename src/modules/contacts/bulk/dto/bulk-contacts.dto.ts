import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsString } from 'class-validator';
import { BULK_MAX_IDS } from '../bulk.errors';

/** Ids are only checked for type here: malformed strings are reported per id by the job (`invalid_id`). */
export class BulkContactsDto {
  @IsDefined({ message: 'contactIds is required' })
  @IsArray({ message: 'contactIds must be an array of contact ids' })
  @ArrayMinSize(1, { message: 'contactIds must hold at least 1 id' })
  @ArrayMaxSize(BULK_MAX_IDS, { message: `contactIds may hold at most ${BULK_MAX_IDS} ids` })
  @IsString({ each: true, message: 'each value of contactIds must be a string' })
  @ApiProperty({ description: 'Contact ids (UUIDs) to process', type: [String] })
  contactIds: string[];
}

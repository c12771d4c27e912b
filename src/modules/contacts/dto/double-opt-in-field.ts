import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';

/** `doubleOptIn` of the bodies that may subscribe a contact (`POST /contacts`, `/v1/track`). */
export const DoubleOptInField = () =>
  applyDecorators(
    IsOptional(),
    IsBoolean(),
    ApiPropertyOptional({
      description: "Double opt-in: with the project's double opt-in enabled, a contact this call would subscribe stays unsubscribed (confirmation pending) and gets the confirmation email",
      type: Boolean,
    }),
  );

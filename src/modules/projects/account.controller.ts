import { Body, Controller, Delete, HttpCode, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiErrors } from '../../platform/http/openapi-errors';
import { ApiNoContent } from '../../platform/http/openapi-responses';
import { CurrentUser, Session } from '../auth';
import { AccountService } from './account.service';
import { DeleteAccountDto } from './dto/delete-account.dto';

@ApiTags('auth')
@Controller('users/@me')
export class AccountController {
  constructor(private readonly account: AccountService) {}

  @Session()
  @Delete()
  @ApiOperation({ summary: 'Delete your account' })
  @ApiErrors([403, 'The password is not correct'], [409, 'You own projects with other members (error.details.projects names them)'], 422)
  @HttpCode(204)
  @ApiNoContent('Deleted, with the projects you own and all their data; every session of the account is ended')
  async remove(@CurrentUser() userId: string, @Body() dto: DeleteAccountDto, @Req() req: Request): Promise<void> {
    await this.account.deleteAccount(userId, dto.password, req.ip);
  }
}

import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { CookieOptions, Request, Response } from 'express';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { CurrentPrincipal, Public, Session } from './auth.decorators';
import { AuthService } from './auth.service';
import { CredentialsDto } from './dto/credentials.dto';
import { toUserResponse, UserResponse } from './dto/user.response';
import type { Principal } from './principal';
import { SESSION_COOKIE, SessionsService } from './sessions.service';
import { UsersService } from './users.service';
import { notFound } from '../../platform/http/app-error';

@ApiTags('auth')
@Controller()
export class AuthController {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly auth: AuthService,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
  ) {}

  @Public()
  @Post('auth/signup')
  async signup(@Body() dto: CredentialsDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<UserResponse> {
    const { user, token } = await this.auth.signup(dto.email, dto.password, { ip: req.ip, userAgent: req.header('user-agent') });
    res.cookie(SESSION_COOKIE, token, this.cookieOptions());
    return toUserResponse(user);
  }

  @Public()
  @Post('auth/login')
  @HttpCode(200)
  async login(@Body() dto: CredentialsDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<UserResponse> {
    const { user, token } = await this.auth.login(dto.email, dto.password, { ip: req.ip, userAgent: req.header('user-agent') });
    res.cookie(SESSION_COOKIE, token, this.cookieOptions());
    return toUserResponse(user);
  }

  @Public()
  @Get('auth/logout')
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<{ success: true }> {
    const token = (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
    if (token && token.length <= 128) {
      const session = await this.sessions.validate(token);
      if (session) await this.auth.logout(session.id);
    }
    res.clearCookie(SESSION_COOKIE, { ...this.cookieOptions(), maxAge: undefined });
    return { success: true };
  }

  @Session()
  @Get('users/@me')
  async me(@CurrentPrincipal() principal: Principal): Promise<UserResponse> {
    const user = await this.users.findById(principal.userId!);
    if (!user) throw notFound('User');
    return toUserResponse(user);
  }

  private cookieOptions(): CookieOptions {
    return {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.publicUrl.startsWith('https:'),
      path: '/',
      maxAge: this.sessions.ttlMs,
    };
  }
}

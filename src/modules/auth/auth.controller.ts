import { Body, Controller, Get, Header, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { CookieOptions, Request, Response } from 'express';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { AppError, notFound } from '../../platform/http/app-error';
import { resetPasswordForm, resultPage, verifyEmailForm } from './auth-pages';
import { CurrentPrincipal, Public, Session, SetsSession } from './auth.decorators';
import { AuthService } from './auth.service';
import { CredentialsDto } from './dto/credentials.dto';
import { EmailDto } from './dto/email.dto';
import { ResetPasswordDto } from './dto/reset-password.dto';
import { TokenDto } from './dto/token.dto';
import { toUserResponse, UserResponse } from './dto/user.response';
import type { Principal } from './principal';
import { SESSION_COOKIE, SessionsService } from './sessions.service';
import { UsersService } from './users.service';
import { ApiHtml, ApiJson, ApiSuccess } from '../../platform/http/openapi-responses';
import { ApiErrors, ERROR_ENVELOPE_REF } from '../../platform/http/openapi-errors';

/** Login CSRF: what the guard answers a cross-site form post to the routes that set the cookie. */
const SIGN_IN_CSRF = 'Not JSON, without X-Requested-With, from another origin (a cross-site form post): no cookie is set';

const ACCEPTED = { success: true, message: 'If an account exists for this address, an email is on its way.' } as const;

const cookieToken = (req: Request): string | undefined => (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];

/** HTML form posts (from the pages behind mail links) get an HTML answer; API clients get JSON. */
const isForm = (req: Request): boolean => Boolean(req.is('application/x-www-form-urlencoded'));

async function answerForm(res: Response, title: string, ok: string, action: () => Promise<unknown>): Promise<string> {
  res.type('html');
  try {
    await action();
    return resultPage(title, ok);
  } catch (err) {
    if (!(err instanceof AppError) || err.statusCode >= 500) throw err;
    res.status(err.statusCode);
    return resultPage(title, err.message);
  }
}

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
  @SetsSession()
  @Post('auth/signup')
  @ApiOperation({ summary: 'Create an account and sign in' })
  @ApiErrors([403, `Signups are disabled on this deployment; or ${SIGN_IN_CSRF}`], 409, 422, 503)
  @ApiJson(201, UserResponse, 'The new user; the session cookie is set')
  async signup(@Body() dto: CredentialsDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<UserResponse> {
    const { user, token } = await this.auth.signup(dto.email, dto.password, { ip: req.ip, userAgent: req.header('user-agent') });
    res.cookie(SESSION_COOKIE, token, this.cookieOptions());
    return toUserResponse(user);
  }

  @Public()
  @SetsSession()
  @Post('auth/login')
  @ApiOperation({ summary: 'Sign in' })
  @ApiErrors(401, [403, SIGN_IN_CSRF], 422, 503)
  @HttpCode(200)
  @ApiJson(200, UserResponse, 'The user; the session cookie is set')
  @ApiResponse({
    status: 429,
    description: 'This client address is waiting out the delay after failed attempts (at this account, or at any); the password was not checked',
    headers: { 'Retry-After': { description: 'Seconds until the next attempt is taken', schema: { type: 'integer' } } },
    schema: { $ref: ERROR_ENVELOPE_REF },
  })
  async login(@Body() dto: CredentialsDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<UserResponse> {
    const { user, token } = await this.auth.login(dto.email, dto.password, {
      ip: req.ip,
      userAgent: req.header('user-agent'),
      currentToken: cookieToken(req),
    });
    res.cookie(SESSION_COOKIE, token, this.cookieOptions());
    return toUserResponse(user);
  }

  @Public()
  @Get('auth/logout')
  @ApiOperation({ summary: 'Sign out' })
  @ApiErrors(503)
  @ApiSuccess('Signed out; the session cookie is cleared')
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<{ success: true }> {
    const token = cookieToken(req);
    if (token) await this.sessions.revokeToken(token);
    res.clearCookie(SESSION_COOKIE, { ...this.cookieOptions(), maxAge: undefined });
    return { success: true };
  }

  @Public()
  @Post('auth/logout')
  @ApiOperation({ summary: 'Sign out (POST)' })
  @ApiErrors(503)
  @HttpCode(200)
  @ApiSuccess('Signed out; the session cookie is cleared')
  logoutPost(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<{ success: true }> {
    return this.logout(req, res);
  }

  @Public()
  @Get('auth/oauth-config')
  @ApiOperation({ summary: 'List the configured OAuth providers' })
  @ApiJson(200, { type: 'object', properties: { providers: { type: 'array', items: { type: 'string' } } } }, 'Configured OAuth providers')
  oauthConfig(): { providers: string[] } {
    return { providers: [] };
  }

  @Public()
  @Get('auth/verify-email')
  @ApiOperation({ summary: 'Show the email verification page' })
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @ApiHtml('Page that confirms the address with the token')
  verifyEmailPage(@Query('token') token?: string): string {
    return verifyEmailForm(typeof token === 'string' ? token : '');
  }

  @Public()
  @Post('auth/verify-email')
  @ApiOperation({ summary: 'Verify the account email with a token' })
  @ApiErrors([400, 'The token is invalid, already used or expired'], 422, 503)
  @HttpCode(200)
  @ApiJson(200, UserResponse, 'Address verified (an HTML page for browser form posts)')
  async verifyEmail(@Body() dto: TokenDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<UserResponse | string> {
    if (isForm(req)) return answerForm(res, 'Verify your email', 'Your email address is verified. You can close this page.', () => this.auth.verifyEmail(dto.token));
    return toUserResponse(await this.auth.verifyEmail(dto.token));
  }

  @Public()
  @Post('auth/request-verification')
  @ApiOperation({ summary: 'Send a new verification email' })
  @ApiErrors(422, 503)
  @HttpCode(202)
  @ApiJson(202, { type: 'object', properties: { success: { type: 'boolean', enum: [true] }, message: { type: 'string' } } }, 'Accepted (the same answer whether or not the account exists)')
  async requestVerification(@Body() dto: EmailDto): Promise<typeof ACCEPTED> {
    await this.auth.requestVerification(dto.email);
    return ACCEPTED;
  }

  @Public()
  @Post('auth/request-password-reset')
  @ApiOperation({ summary: 'Send a password reset email' })
  @ApiErrors(422, 503)
  @HttpCode(202)
  @ApiJson(202, { type: 'object', properties: { success: { type: 'boolean', enum: [true] }, message: { type: 'string' } } }, 'Accepted (the same answer whether or not the account exists)')
  async requestPasswordReset(@Body() dto: EmailDto): Promise<typeof ACCEPTED> {
    await this.auth.requestPasswordReset(dto.email);
    return ACCEPTED;
  }

  @Public()
  @Get('auth/reset-password')
  @ApiOperation({ summary: 'Show the password reset page' })
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @ApiHtml('Page with the new-password form')
  resetPasswordPage(@Query('token') token?: string): string {
    return resetPasswordForm(typeof token === 'string' ? token : '');
  }

  /** Every session of the user ends, this client's cookie included. */
  @Public()
  @Post('auth/reset-password')
  @ApiOperation({ summary: 'Reset the password with a token' })
  @ApiErrors([400, 'The token is invalid, already used or expired'], 422, 503)
  @HttpCode(200)
  @ApiSuccess('Password changed; other sessions are signed out (an HTML page for browser form posts)')
  async resetPassword(@Body() dto: ResetPasswordDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<{ success: true } | string> {
    const reset = async () => {
      await this.auth.resetPassword(dto.token, dto.password);
      res.clearCookie(SESSION_COOKIE, { ...this.cookieOptions(), maxAge: undefined });
    };
    if (isForm(req)) return answerForm(res, 'Choose a new password', 'Your password was changed. Sign in with the new password.', reset);
    await reset();
    return { success: true };
  }

  @Session()
  @Get('users/@me')
  @ApiOperation({ summary: 'Get the signed-in user' })
  @ApiErrors([404, 'The account no longer exists'])
  @ApiJson(200, UserResponse, 'The signed-in user')
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

import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthController } from './auth.controller';
import { AuthRepository } from './auth.repository';
import { AuthService } from './auth.service';
import { SessionRecord } from './entities/session.entity';
import { UserToken } from './entities/user-token.entity';
import { User } from './entities/user.entity';
import { LoginThrottle } from './login-throttle';
import { PublicConfigController } from './public-config.controller';
import { SessionStrategy } from './session.strategy';
import { SessionsService } from './sessions.service';
import { UserTokensService } from './user-tokens.service';
import { UsersService } from './users.service';

@Module({
  imports: [PassportModule, TypeOrmModule.forFeature([User, SessionRecord, UserToken])],
  controllers: [AuthController, PublicConfigController],
  providers: [AuthRepository, UsersService, SessionsService, AuthService, SessionStrategy, UserTokensService, LoginThrottle],
  exports: [UsersService, SessionsService, AuthService],
})
export class AuthModule {}

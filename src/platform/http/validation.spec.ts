import { IsEmail, IsString, MinLength, ValidateNested, validateSync } from 'class-validator';
import { plainToInstance, Type } from 'class-transformer';
import { isSecretField, toFieldErrors } from './validation';

class Nested {
  @IsString() @MinLength(8) apiKey!: string;
  @IsString() @MinLength(8) label!: string;
}

class Body {
  @IsEmail() email!: string;
  @IsString() @MinLength(8) password!: string;
  @ValidateNested() @Type(() => Nested) nested!: Nested;
}

describe('toFieldErrors', () => {
  it('names secret fields by their last segment', () => {
    for (const field of ['password', 'newPassword', 'passphrase', 'token', 'data.webhookSecret', 'apiKey', 'keys[0]', 'nested.secretKey', 'password[0][1]']) {
      expect({ field, secret: isSecretField(field) }).toEqual({ field, secret: true });
    }
    for (const field of ['email', 'name', 'subject', 'tokenized.name', 'data.plan', 'passive']) {
      expect({ field, secret: isSecretField(field) }).toEqual({ field, secret: false });
    }
  });

  it('leaves received out of secret fields, at any depth, and keeps it elsewhere', () => {
    const body = plainToInstance(Body, { email: 'nope', password: 'hunter2', nested: { apiKey: 'sk_x', label: 'short' } });
    const items = toFieldErrors(validateSync(body, { validationError: { target: false, value: true } }));
    expect(items).toEqual([
      expect.objectContaining({ field: 'email', received: 'nope' }),
      expect.objectContaining({ field: 'password', received: undefined }),
      expect.objectContaining({ field: 'nested.apiKey', received: undefined }),
      expect.objectContaining({ field: 'nested.label', received: 'short' }),
    ]);
    expect(JSON.stringify(items)).not.toMatch(/hunter2|sk_x/);
  });
});

import { IsIn } from 'class-validator';

export class ManagePreferencesDto {
  @IsIn(['subscribe', 'unsubscribe'])
  action: 'subscribe' | 'unsubscribe';
}

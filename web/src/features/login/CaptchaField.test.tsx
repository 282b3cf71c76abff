// @vitest-environment jsdom
/**
 * The picture code of the login and registration forms: required (an empty or blank code is
 * refused, a typed one passes), and a click on the picture asks for a new one and empties the
 * field.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Button, Form } from 'antd';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import { CaptchaField, useCaptcha } from './CaptchaField';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Harness({ onFinish, imgClass }: { onFinish: (v: { code?: string }) => void; imgClass?: string }) {
  const [form] = Form.useForm<{ code?: string }>();
  const captcha = useCaptcha(form, 'code');
  return (
    <Form form={form} onFinish={onFinish}>
      <CaptchaField name="code" captcha={captcha} imgClass={imgClass} />
      <Button htmlType="submit">Go</Button>
    </Form>
  );
}

const picture = () => screen.getByRole('button', { name: 'Verification code picture' }) as HTMLImageElement;
const input = () => screen.getByPlaceholderText('Code in the picture') as HTMLInputElement;

describe('CaptchaField', () => {
  it('refuses a blank code and passes a typed one', async () => {
    serverAnswers({});
    const finished = vi.fn();
    renderSignedIn(<Harness onFinish={finished} />);
    expect(picture().className).toBe('cw-login-captcha');
    fireEvent.change(input(), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(await screen.findByText('Please enter the verification code')).toBeTruthy();
    expect(finished).not.toHaveBeenCalled();
    fireEvent.change(input(), { target: { value: 'x7k2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    await waitFor(() => expect(finished).toHaveBeenCalledWith({ code: 'x7k2' }));
  });

  it('a click on the picture asks for a new one and empties the field', async () => {
    serverAnswers({});
    const now = vi.spyOn(Date, 'now').mockReturnValue(1000);
    renderSignedIn(<Harness onFinish={() => {}} imgClass="cw-login-captcha cw-register-captcha" />);
    expect(picture().getAttribute('src')).toBe('/service/user/captcha?t=1000');
    expect(picture().className).toBe('cw-login-captcha cw-register-captcha');
    fireEvent.change(input(), { target: { value: 'x7k2' } });
    now.mockReturnValue(2000);
    fireEvent.click(picture());
    await waitFor(() => expect(picture().getAttribute('src')).toBe('/service/user/captcha?t=2000'));
    expect(input().value).toBe('');
    now.mockRestore();
  });
});

export default function UserInfoPage() {
  return null;
}

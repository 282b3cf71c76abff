/** /device/magnetism: the door magnets (spec §2); the sensor page for the magnet kind. */
import SensorPage from './SensorPage';

export default function MagnetPage() {
  return <SensorPage kind="magnet" />;
}

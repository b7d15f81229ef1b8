/**
 * dayjs in Chinese (weekday and month names, the date pickers' first day of the week). Imported by
 * the pages that show dates (the shell, schema screens, the payment page) rather than by main.tsx,
 * so the login page does not download dayjs (the login route's JavaScript budget).
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

dayjs.locale('zh-cn');

export default dayjs;

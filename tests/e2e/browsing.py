"""What the browser tests do while a page loads: wait for a condition, read the element with the focus."""


def wait(driver, condition, timeout=15):
    """Wait until `condition(driver)` is true and return its value. An element read from the page that was
    just left (stale) counts as not yet: the condition is tried again on the page that replaced it."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # asked every 0.1 s (Selenium's default is 0.5 s: a quarter of a second lost on average at each of the suite's
    # waits, for one WebDriver round trip saved)
    return WebDriverWait(
        driver, timeout, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,)
    ).until(condition)


def focused(driver, attribute):
    """The attribute (id, name, class) of the element that has the keyboard focus."""
    return driver.switch_to.active_element.get_attribute(attribute) or ""
